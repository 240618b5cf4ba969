// The CSS reference reader (issue 35) on a large stylesheet: css-tree's tokenizer (what the engine
// uses) against the regex it replaced and against css-tree's full parse (a tree, then a walk), by
// time per MB and heap held, in alternation. Run: node_modules/.bin/node --expose-gc bench/css-urls.mjs [MB]
import { parse, walk } from 'css-tree';
import { forEachCssUrl } from '../packages/engine/dist/extract/css-urls.js';

const megabytes = Number(process.argv[2] ?? 5);
const rule = (index) =>
  `.c${index} { color: #${(index % 4096).toString(16).padStart(3, '0')}; margin: 0 auto; ` +
  `background: url("img/${index}.png") no-repeat; /* note ${index} */ }\n` +
  (index % 50 === 0
    ? `@font-face { font-family: f${index}; src: url(f/${index}.woff2) format("woff2") }\n`
    : '');
let css = '@import "base.css";\n';
for (let index = 0; css.length < megabytes * 1024 * 1024; index++) css += rule(index);

const regex =
  /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s'"]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')/gi;
const readers = {
  tokenizer: () => {
    let count = 0;
    forEachCssUrl(css, () => count++);
    return count;
  },
  regex: () =>
    [...css.replace(/\/\*[\s\S]*?\*\//g, (c) => ' '.repeat(c.length)).matchAll(regex)].length,
  'full parse': () => {
    let count = 0;
    const tree = parse(css, { positions: true });
    walk(tree, (node) => {
      if (node.type === 'Url') count++;
    });
    globalThis.held = tree; // (measured while the tree is alive, as a reader would hold it)
    return count;
  },
};

const results = Object.fromEntries(
  Object.keys(readers).map((name) => [name, { ms: [], heap: [] }]),
);
for (let round = 0; round < 5; round++) {
  for (const [name, read] of Object.entries(readers)) {
    globalThis.gc?.();
    const before = process.memoryUsage().heapUsed;
    const start = performance.now();
    const count = read();
    const ms = performance.now() - start;
    const heap = process.memoryUsage().heapUsed - before;
    globalThis.held = undefined;
    results[name].ms.push(ms);
    results[name].heap.push(heap);
    results[name].count = count;
  }
}
const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
console.log(`stylesheet: ${(css.length / 1048576).toFixed(1)} MB`);
for (const [name, { ms, heap, count }] of Object.entries(results)) {
  const perMb = median(ms) / (css.length / 1048576);
  console.log(
    `${name.padEnd(11)} ${count} references, ${perMb.toFixed(1)} ms/MB (median of 5), heap +${(median(heap) / 1048576).toFixed(0)} MB`,
  );
}
