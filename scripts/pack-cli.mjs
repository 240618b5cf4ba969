#!/usr/bin/env node
// Packs the `linkaudit` command as one npm package that installs and runs alone (issue 38):
//   node scripts/pack-cli.mjs [--out DIR]      → DIR/linkaudit-cli-<version>.tgz (default: ./pack)
//
// The CLI needs @linkaudit/engine and @linkaudit/core, which are workspace packages, not on a
// registry. They travel inside the CLI's tarball as bundled dependencies, each with its built
// dist/ only (their file layout kept: the engine finds its worker scripts and its dictionary
// snapshot next to its own modules). Their third-party dependencies become the packed CLI's own,
// so npm installs them at the top of the user's node_modules, where the bundled packages'
// imports find them.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const BUNDLED = ['core', 'engine'];

const readManifest = (name) =>
  JSON.parse(readFileSync(path.join(root, 'packages', name, 'package.json'), 'utf8'));

/** Exports without the `source` condition: it names TypeScript sources that are not shipped. */
function shippedExports(exports) {
  return Object.fromEntries(
    Object.entries(exports ?? {}).map(([subpath, conditions]) => [
      subpath,
      typeof conditions === 'string'
        ? conditions
        : Object.fromEntries(Object.entries(conditions).filter(([name]) => name !== 'source')),
    ]),
  );
}

/** A built package's shipped files (package.json, dist/, bin/) copied into `target`. */
function copyBuilt(name, target, manifest) {
  const from = path.join(root, 'packages', name);
  mkdirSync(target, { recursive: true });
  cpSync(path.join(from, 'dist'), path.join(target, 'dist'), {
    recursive: true,
    filter: (file) => !file.endsWith('.tsbuildinfo'),
  });
  if (manifest.bin) cpSync(path.join(from, 'bin'), path.join(target, 'bin'), { recursive: true });
  writeFileSync(path.join(target, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The third-party dependencies of the given workspace packages, merged (first range wins). */
function thirdPartyDependencies(manifests) {
  const merged = {};
  for (const manifest of manifests) {
    for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
      if (!name.startsWith('@linkaudit/') && !(name in merged)) merged[name] = range;
    }
  }
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export function packCli(outDirectory) {
  execFileSync('npm', ['run', 'build:ts'], { cwd: root, stdio: 'inherit' });
  const cli = readManifest('cli');
  const bundled = BUNDLED.map((name) => ({ name, manifest: readManifest(name) }));
  const staging = mkdtempSync(path.join(tmpdir(), 'linkaudit-pack-'));
  try {
    for (const { name, manifest } of bundled) {
      const { devDependencies: _dev, private: _private, ...kept } = manifest;
      copyBuilt(name, path.join(staging, 'node_modules', manifest.name), {
        ...kept,
        exports: shippedExports(manifest.exports),
      });
    }
    const { devDependencies: _dev, private: _private, ...kept } = cli;
    copyBuilt('cli', staging, {
      ...kept,
      name: cli.name,
      description: 'LinkAudit: checks a website for broken links, anchors and quality rules',
      license: 'UNLICENSED',
      exports: shippedExports(cli.exports),
      files: ['bin', 'dist'],
      dependencies: {
        ...thirdPartyDependencies([cli, ...bundled.map(({ manifest }) => manifest)]),
        ...Object.fromEntries(bundled.map(({ manifest }) => [manifest.name, manifest.version])),
      },
      bundleDependencies: bundled.map(({ manifest }) => manifest.name),
    });
    mkdirSync(outDirectory, { recursive: true });
    const output = execFileSync(
      'npm',
      ['pack', '--json', '--pack-destination', path.resolve(outDirectory)],
      { cwd: staging, encoding: 'utf8' },
    );
    const [packed] = JSON.parse(output);
    return path.join(path.resolve(outDirectory), packed.filename);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'pack' } } });
  console.log(packCli(values.out));
}
