// The public front door of @linkaudit/cli: the program as a function, for tests and for tools
// that embed it.
export { main, exitCodeFor, ExitCode, type CliDeps, type CliIo, type CliStream } from './run.js';
export { parseCommandLine, usage, UsageError, type Command, type Format } from './options.js';
