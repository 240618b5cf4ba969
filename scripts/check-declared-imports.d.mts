/** The undeclared imports of one workspace package, as "file:line: …" lines. */
export function undeclaredImports(packageDirectory: string): string[];
/** `@scope/name` or `name` of a bare specifier; undefined for relative, absolute and built-ins. */
export function packageNameOf(specifier: string): string | undefined;
/** Every import of a source file: its specifier, line and whether it is only for types. */
export function importsOf(
  fileName: string,
  text: string,
): Array<{ specifier: string; typeOnly: boolean; line: number }>;
