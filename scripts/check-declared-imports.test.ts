import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { undeclaredImports } from './check-declared-imports.mjs';

const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A package in a throw-away folder with the given manifest fields and source files. */
function packageWith(manifest: object, files: Record<string, string>): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'declared-imports-'));
  made.push(directory);
  writeFileSync(path.join(directory, 'package.json'), JSON.stringify({ name: 'p', ...manifest }));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(directory, 'src', name)), { recursive: true });
    writeFileSync(path.join(directory, 'src', name), text);
  }
  return directory;
}

const check = (directory: string) => undeclaredImports(directory);

describe('the lint step’s check of declared imports', () => {
  it('fails on a workspace package imported without being declared, as npm hoisting hides', () => {
    const directory = packageWith(
      {},
      {
        'a.ts': "import { plans } from '@linkaudit/core';\nexport const p = plans;\n",
        'b.ts': "export async function later() {\n  return import('zod/mini');\n}\n",
      },
    );
    const problems = check(directory);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/a\.ts:1: imports @linkaudit\/core, not declared/);
    expect(problems[1]).toMatch(/b\.ts:2: imports zod, not declared/);
  });

  it('passes declared dependencies, built-ins, relative files and type-only devDependencies', () => {
    const directory = packageWith(
      { dependencies: { '@linkaudit/core': '*' }, devDependencies: { kysely: '*' } },
      {
        'a.ts': [
          "import { plans } from '@linkaudit/core';",
          "import { readFileSync } from 'node:fs';",
          "import path from 'path';",
          "import type { Kysely } from 'kysely';",
          "import { b } from './b.js';",
          'export const all = [plans, readFileSync, path, b] as unknown as Kysely<never>;',
        ].join('\n'),
        'b.ts': 'export const b = 1;\n',
      },
    );
    expect(check(directory)).toEqual([]);
  });

  it('lets tests use the root devDependencies, never shipped code', () => {
    const directory = packageWith(
      {},
      {
        'a.test.ts': "import { it } from 'vitest';\nit('runs', () => {});\n",
        'test-support/server.ts': "export { it } from 'vitest';\n",
        'shipped.ts': "import { it } from 'vitest';\nexport const run = it;\n",
        'types.ts': "import type { Kysely } from 'kysely';\nexport type Db = Kysely<never>;\n",
      },
    );
    expect(check(directory).map((line) => line.split(':')[0]!.split('/').pop())).toEqual([
      'shipped.ts',
      'types.ts',
    ]);
  });
});
