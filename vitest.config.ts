import { defineConfig } from 'vitest/config';

const shared = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: 'forks' as const,
  // Scan processes keep the priority of the tests that wait for them (the server lowers it by
  // 10 in production): two test files run at once, and a busy one must not starve the other's
  // scan. isolated-scan.test.ts sets the default back to check it.
  env: { LINKAUDIT_SCAN_NICENESS: '0' },
};

// Unit and integration tests of every package, run on the TypeScript sources (the "source"
// export condition), so no build is needed first.
export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    projects: [
      {
        resolve: { conditions: ['source'] },
        ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
        test: {
          ...shared,
          name: 'packages',
          include: [
            'packages/*/src/**/*.test.ts',
            'bench/**/*.test.ts',
            'corpus/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        // Web components with Testing Library in a DOM of their own (happy-dom): our packages
        // resolve to their sources as the browser build does (resolve), while libraries from
        // node_modules load as published, not under "source" (the worker's Node conditions come
        // from ssr.resolve): antd's scroll helpers name TypeScript there, which Node cannot run.
        resolve: { conditions: ['source'] },
        ssr: { resolve: { conditions: [] } },
        test: {
          ...shared,
          name: 'web',
          include: ['packages/web/src/**/*.test.tsx'],
          environment: 'happy-dom',
        },
      },
    ],
  },
});
