// The five output formats as they were before the reports were streamed (commit d26cc65): each
// report made as one string (JSON and SARIF as one JSON.stringify of one document). They are the
// oracle the streamed formatters must match byte for byte (formatters/streamed.test.ts); the
// helpers they share with those (report.ts, xml.ts) are not copied. A format changed on purpose
// is changed here too.
export type { OneStringFormatter } from './formatter.js';
export { formatCsv } from './csv.js';
export { formatJson } from './json.js';
export { formatJunit } from './junit.js';
export { formatSarif } from './sarif.js';
export { formatText } from './text.js';
