import { defineConfig } from 'vitest/config';

// Unit and integration tests of every package, run on the TypeScript sources (the "source"
// export condition), so no build is needed first.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'bench/**/*.test.ts', 'corpus/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
