import { defineConfig } from 'vitest/config';

// Unit and integration tests of every package, run on the TypeScript sources (the "source"
// export condition), so no build is needed first.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'bench/**/*.test.ts',
      'corpus/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Scan processes keep the priority of the tests that wait for them (the server lowers it by
    // 10 in production): two test files run at once, and a busy one must not starve the other's
    // scan. isolated-scan.test.ts sets the default back to check it.
    env: { LINKAUDIT_SCAN_NICENESS: '0' },
  },
});
