/** Builds and packs the CLI with its workspace packages bundled; resolves the tarball's path. */
export function packCli(outDirectory: string): string;
