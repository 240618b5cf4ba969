// Cuts a slice of an installed documentation site for the checked-in corpus (run by hand; the
// slices it wrote are in sites/<name>/, with SOURCE.md saying how):
//   node corpus/slice.mjs <name> <package> <doc root> <start path> <budget KB>
// Pages are taken breadth first from the start page, as a crawler meets them, while their HTML
// fits the budget; then every file those pages reference (style sheets, scripts, images) of at
// most 16 KB, symbolic links resolved to their contents. Pages and files left out are simply
// absent: links to them are 404s of the served slice, and the tests expect them as such.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SiteFiles } from './static-site.mjs';
import { ServedSite } from './truth.mjs';

const [name, pkg, root, start, budgetKb] = process.argv.slice(2);
if (!budgetKb) throw new Error('usage: slice.mjs <name> <package> <doc root> <start> <budget KB>');
const origin = 'http://127.0.0.1:9';
const site = new ServedSite(new SiteFiles(root), origin);
const budget = Number(budgetKb) * 1024;
const pages = [];
const assets = new Set();
let bytes = 0;
const queue = [new URL(start, origin).href];
const seen = new Set(queue);
for (let i = 0; i < queue.length; i++) {
  const answer = site.answer(queue[i]);
  if (answer.status !== 200) continue;
  if (!answer.html) {
    assets.add(answer.file);
    continue;
  }
  const size = statSync(path.join(root, answer.file)).size;
  if (pages.includes(answer.file) || bytes + size > budget) continue;
  pages.push(answer.file);
  bytes += size;
  for (const link of site.page(answer.finalUrl).links) {
    if (link.missing) continue;
    let url;
    try {
      url = new URL(link.raw, link.base);
    } catch {
      continue;
    }
    url.hash = '';
    if (url.origin !== origin || seen.has(url.href)) continue;
    seen.add(url.href);
    const navigational = ['a', 'area', 'iframe', 'frame', 'meta'].includes(link.element);
    if (navigational) queue.push(url.href);
    else {
      const target = site.answer(url.href);
      if (target.status === 200) assets.add(target.file);
    }
  }
}
const out = path.join(import.meta.dirname, 'sites', name);
rmSync(path.join(out, 'site'), { recursive: true, force: true });
const copied = [...pages];
for (const file of assets) {
  const size = statSync(path.join(root, file)).size;
  if (size > 16 * 1024 || pages.includes(file)) continue;
  copied.push(file);
}
for (const file of copied) {
  mkdirSync(path.dirname(path.join(out, 'site', file)), { recursive: true });
  copyFileSync(path.join(root, file), path.join(out, 'site', file)); // follows symbolic links
}
const version = execFileSync('dpkg-query', ['-W', '-f', '${Version}', pkg], { encoding: 'utf8' });
copyFileSync(`/usr/share/doc/${pkg}/copyright`, path.join(out, 'copyright'));
const isHtml = (file) => /\.x?html?$/i.test(file);
const sizeOf = (files) =>
  Math.round(files.reduce((sum, file) => sum + statSync(path.join(root, file)).size, 0) / 1024);
const htmlFiles = copied.filter(isHtml);
const otherFiles = copied.filter((file) => !isHtml(file));
writeFileSync(
  path.join(out, 'SOURCE.md'),
  [
    `# ${name}`,
    '',
    `Debian package \`${pkg}\` ${version} (Debian 12), files under \`${root}\`, copied unchanged`,
    `(licence: \`copyright\` beside this file, the package's own).`,
    '',
    `Slice: \`node corpus/slice.mjs ${process.argv.slice(2).join(' ')}\` — pages taken breadth first`,
    `from \`${start}\` while their HTML fits ${budgetKb} KB, then the files they reference of at most 16 KB:`,
    `${htmlFiles.length} HTML files (${sizeOf(htmlFiles)} KB) and ${otherFiles.length} other files (${sizeOf(otherFiles)} KB).`,
    'Pages and files left out are absent, so links to them are 404s of the served slice.',
    '',
  ].join('\n'),
);
console.log(`${name}: ${htmlFiles.length} HTML files, ${otherFiles.length} other files`);
