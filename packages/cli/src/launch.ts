// The first module the `linkaudit` process loads. It turns on Node's compile cache (the compiled
// code of the ~500 modules a scan needs is kept in the system's temporary folder, which saves
// about 50 ms of CPU per run; NODE_DISABLE_COMPILE_CACHE=1 turns it off) and only then loads the
// command: static imports would be loaded before this module's own code runs.
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./command.js');
