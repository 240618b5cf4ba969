// Lets a scan process run the engine from its TypeScript sources (the tests do; compiled code
// never loads this): Node strips the types, and this hook finds `x.ts` for an import of `x.js`,
// as TypeScript's NodeNext resolution does. Given to the process with --import.
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

registerHooks({
  resolve(specifier, context, nextResolve) {
    const parent = context.parentURL;
    if (parent?.endsWith('.ts') && specifier.endsWith('.js') && /^(\.|file:)/.test(specifier)) {
      const url = new URL(specifier, parent);
      if (!existsSync(fileURLToPath(url)))
        return nextResolve(url.href.replace(/\.js$/, '.ts'), context);
    }
    return nextResolve(specifier, context);
  },
});
