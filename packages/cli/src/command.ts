// The scan command in this process: Ctrl-C handling, the run, the exit code.
import { main } from './run.js';

// The first Ctrl-C cancels the scan and still prints what was found; a second one quits at once.
const interrupt = new AbortController();
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(130);
  process.stderr.write('\nlinkaudit: stopping; press Ctrl-C again to quit now\n');
  interrupt.abort();
});

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: interrupt.signal,
});
// Exit explicitly: the report is written, and a connection the engine still holds open must not
// keep a CI job waiting.
process.exit(code);
