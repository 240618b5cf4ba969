#!/usr/bin/env node
// Fails when a package imports a package it does not declare (issue 38). In the workspace npm
// hoists every dependency to the root's node_modules, so an import of `zod` or `@linkaudit/core`
// works from any package whether or not that package's package.json names it; installed alone
// (the packed CLI, `npx linkaudit`), the same import fails. dependency-cruiser cannot tell:
// a workspace package resolves through its symlink to a path it calls "undetermined".
//
// The rule: code that ships (src/ outside tests) imports only its package's dependencies (or
// peer/optional ones) and Node's built-ins; a type-only import may also name a devDependency
// (it is gone after compiling). Tests and test support may also use the package's and the
// workspace root's devDependencies: they run only in the checkout.
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const rootPackage = readJson(path.join(root, 'package.json'));
const builtins = new Set(builtinModules);

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** `@scope/name` or `name` of a bare specifier; undefined for relative, absolute and built-ins. */
export function packageNameOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) {
    return undefined;
  }
  // Vite's own specifiers (`virtual:…`, `/@vite/…`) and query suffixes are not packages.
  if (specifier.includes(':')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return builtins.has(name) ? undefined : name;
}

/** Every import of a source file: its specifier, line and whether it is only for types. */
export function importsOf(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found = [];
  const add = (node, specifier, typeOnly) =>
    found.push({
      specifier,
      typeOnly,
      line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
    });
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node)
        ? Boolean(node.importClause?.isTypeOnly)
        : node.isTypeOnly;
      add(node, node.moduleSpecifier.text, typeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node, node.arguments[0].text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) add(node, literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function* sourceFiles(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') yield* sourceFiles(full);
    } else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      yield full;
    }
  }
}

const isTestCode = (file) => /\.(test|spec)\.tsx?$|[/\\]test-support[/\\]/.test(file);

/** The undeclared imports of one workspace package, as "file:line: name" lines. */
export function undeclaredImports(packageDirectory) {
  const manifest = readJson(path.join(packageDirectory, 'package.json'));
  const names = (...fields) => new Set(fields.flatMap((field) => Object.keys(field ?? {})));
  const shipped = names(
    manifest.dependencies,
    manifest.peerDependencies,
    manifest.optionalDependencies,
  );
  shipped.add(manifest.name); // a package may import itself by name (its exports)
  const typesToo = names(manifest.devDependencies);
  const testsToo = names(manifest.devDependencies, rootPackage.devDependencies);
  const problems = [];
  for (const file of sourceFiles(path.join(packageDirectory, 'src'))) {
    const test = isTestCode(file);
    for (const { specifier, typeOnly, line } of importsOf(file, readFileSync(file, 'utf8'))) {
      const name = packageNameOf(specifier);
      if (!name || shipped.has(name)) continue;
      if (typeOnly && (typesToo.has(name) || typesToo.has(`@types/${name}`))) continue;
      if (test && testsToo.has(name)) continue;
      problems.push(
        `${path.relative(root, file)}:${line}: imports ${name}, not declared in ` +
          `${path.relative(root, path.join(packageDirectory, 'package.json'))}` +
          (test ? ' (nor the root devDependencies)' : ' dependencies'),
      );
    }
  }
  return problems;
}

if (process.argv[1] === import.meta.filename) {
  const packagesDirectory = path.join(root, 'packages');
  const problems = readdirSync(packagesDirectory).flatMap((name) =>
    undeclaredImports(path.join(packagesDirectory, name)),
  );
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`${problems.length} undeclared imports: declare each in its package.json.`);
    process.exitCode = 1;
  } else {
    console.log('every package declares what it imports');
  }
}
