// The first module the server loads (main.ts imports it before anything else, and an ES module's
// imports run in order), so these V8 settings hold before the API, its SQLite threads or any
// request allocate. Under load (bench/load.mjs: 100 clients reading a 100,000-URL scan) the API's
// heap grew to 270–360 MB for ~100 MB of live data and the CSV export thread's to 150 MB for
// 26 MB: V8's default heap growth lets garbage pile up while memory is plentiful. A young
// generation of 8 MB and 20 % heap growth (the flags a crawl runs with, engine/crawl-node-flags.ts)
// kept the whole server's peak at 457 MB instead of 718 MB in the same run (docs/benchmarks.md).
// V8 flags are the process's, so the worker threads started later share them. A flag given on the
// command line (node --max-semi-space-size=… main.js) wins over the default here.
import { setFlagsFromString } from 'node:v8';

const serverHeapFlags = ['--max-semi-space-size=8', '--heap-growing-percent=20'];

for (const flag of serverHeapFlags) {
  const name = flag.split('=')[0]!;
  if (!process.execArgv.some((given) => given.startsWith(name))) setFlagsFromString(flag);
}
