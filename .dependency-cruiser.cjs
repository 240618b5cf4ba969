/**
 * The architecture's rules, checked by `npm run lint` (dependency-cruiser).
 * Packages import downward only: core ← engine ← cli; core + engine ← server; core ← web.
 * Inside the server, modules talk through services (never another module's repository);
 * inside the web app, features never import each other or the app shell.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle makes a package impossible to read from the bottom up.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-no-package',
      severity: 'error',
      comment: 'core is the bottom layer: it owns the shared shapes and imports no other package.',
      from: { path: '^packages/core/' },
      to: { path: '^packages/(engine|cli|server|web)/' },
    },
    {
      name: 'engine-imports-only-core',
      severity: 'error',
      from: { path: '^packages/engine/' },
      to: { path: '^packages/(cli|server|web)/' },
    },
    {
      name: 'cli-imports-core-and-engine',
      severity: 'error',
      from: { path: '^packages/cli/' },
      to: { path: '^packages/(server|web)/' },
    },
    {
      name: 'server-imports-core-and-engine',
      severity: 'error',
      from: { path: '^packages/server/' },
      to: { path: '^packages/(cli|web)/' },
    },
    {
      name: 'web-imports-only-core',
      severity: 'error',
      from: { path: '^packages/web/' },
      to: { path: '^packages/(engine|cli|server)/' },
    },
    {
      name: 'no-foreign-repository',
      severity: 'error',
      comment: 'Server modules talk through services; a repository belongs to its own module.',
      from: { path: '^packages/server/src/modules/([^/]+)/' },
      to: {
        path: '^packages/server/src/modules/[^/]+/[^/]+\\.repository\\.ts$',
        pathNot: '^packages/server/src/modules/$1/',
      },
    },
    {
      name: 'sql-only-in-repositories',
      severity: 'error',
      comment:
        'A server module writes SQL only in its *.repository.ts (db/ keeps the connection-level statements); ' +
        'others may name Kysely types, never build queries with it.',
      from: {
        path: '^packages/server/src/modules/',
        pathNot: '\\.(repository|test)\\.ts$',
      },
      to: { path: '(^|/)node_modules/(kysely|pg|pg-cursor)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-feature-to-feature',
      severity: 'error',
      comment: 'Web features stand alone; what two features share lives in components/ or lib/.',
      from: { path: '^packages/web/src/features/([^/]+)/' },
      to: {
        path: '^packages/web/src/features/',
        pathNot: '^packages/web/src/features/$1/',
      },
    },
    {
      name: 'no-feature-to-app',
      severity: 'error',
      comment: 'The app shell composes features; features never reach back into it.',
      from: { path: '^packages/web/src/(features|components|lib)/' },
      to: { path: '^packages/web/src/app/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^packages/[^/]+/dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
    },
    combinedDependencies: true,
  },
};
