// Spelling recall and precision on the labelled corpus of real pages (corpus/spelling, issue 37).
// Run: npm run build:ts && node bench/spelling.mjs [path to an engine's dist/rules/index.js]
// (another engine's rules, say main's before a change, to compare).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { measureSpelling } from '../corpus/spelling/measure.mjs';

const rulesModule = process.argv[2]
  ? pathToFileURL(path.resolve(process.argv[2])).href
  : '@linkaudit/engine/rules';
const { createRuleRunner } = await import(rulesModule);
const m = measureSpelling(createRuleRunner);
const percent = (value) => `${(value * 100).toFixed(1)} %`;
console.log(`pages ${m.pages}, labelled misspellings ${m.labelled}, found ${m.found}`);
console.log(`precision ${m.right}/${m.found} = ${percent(m.precision)}`);
console.log(`recall    ${m.right}/${m.labelled} = ${percent(m.recall)}`);
console.log(`false alarms: ${m.wrong.join(', ') || 'none'}`);
console.log(`missed: ${m.missed.join(', ') || 'none'}`);
