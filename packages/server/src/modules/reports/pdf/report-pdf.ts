import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import {
  brokenAnchorReason,
  type AccountLanguage,
  type DuplicateAnchorRow,
  type LinkRow,
  type PageRow,
  type ReportSummary,
  type Suggestion,
} from '@linkaudit/core';
import { drawBars, drawDoughnut, drawPassFail } from './pdf-charts.js';
import type { PdfWriter } from './pdf-stream.js';
import { pdfDate, pdfTexts, type PdfTexts } from './pdf-texts.js';

/** A rule's count of findings and of pages with one (the PDF's rule summary). */
export interface RuleCount {
  ruleId: string;
  ruleName: string;
  ruleCategoryID: number;
  findings: number;
  pages: number;
}

/** Everything one PDF shows: the report model and the row lists read as the PDF is written. */
export interface ReportPdfContent {
  language: AccountLanguage;
  model: ReportSummary;
  scannedAt: Date;
  ruleCounts: RuleCount[];
  /** Pages over 2 MB, largest first, read as they are written. */
  fattest: AsyncIterable<PageRow>;
  /** Each repeat of an id on a page, read as they are written. */
  duplicates: AsyncIterable<DuplicateAnchorRow>;
  /** Every broken link (broken anchors among them), read as they are written. */
  broken: AsyncIterable<LinkRow>;
}

/**
 * Noto Sans Hans (Simplified Chinese with Latin) from the `@embedpdf/fonts-sc` package, read and
 * parsed once per process and shared by every PDF (pdfkit takes a parsed fontkit font; parsing the
 * 8 MB fonts for each document cost ~100 MB of short-lived memory). pdfkit embeds only the glyphs
 * a document uses (a subset), so a PDF stays small.
 */
const fonts = (() => {
  let loaded: { regular: fontkit.Font; bold: fontkit.Font } | null = null;
  const open = (file: string): fontkit.Font => {
    const font = fontkit.create(readFileSync(file));
    if (!('layout' in font)) throw new Error(`${file} is a font collection, not a font`);
    return font;
  };
  return () => {
    if (!loaded) {
      const require = createRequire(import.meta.url);
      const dir = require.resolve('@embedpdf/fonts-sc').replace(/dist[\\/]index\.c?js$/, 'fonts/');
      loaded = {
        regular: open(`${dir}NotoSansHans-Regular.otf`),
        bold: open(`${dir}NotoSansHans-Bold.otf`),
      };
    }
    return loaded;
  };
})();

export const pdfPageOptions: PDFKit.PDFDocumentOptions = {
  size: 'A4',
  margins: { top: 56, bottom: 50, left: 48, right: 48 },
  autoFirstPage: false,
  compress: true,
};

const MB = 1048576;
const grey = '#666';
const ink = '#222';
/** A suggested fix's heading (green, as the screen's fix tags) and its address (a link's blue). */
const fixColor = '#237804';
const linkColor = '#0b57d0';

/** Writes the report PDF of `content`, pausing between rows while the client catches up. */
export async function writeReportPdf(writer: PdfWriter, content: ReportPdfContent): Promise<void> {
  const { doc } = writer;
  const texts = pdfTexts(content.language);
  const { regular, bold } = fonts();
  // pdfkit accepts a parsed fontkit font, though its types name only paths and buffers.
  doc.registerFont('regular', regular as unknown as Buffer);
  doc.registerFont('bold', bold as unknown as Buffer);
  doc.info.Title = `${texts.product} ${texts.title} ${content.model.url}`;
  doc.info.Producer = texts.product;
  const page = new PdfPages(
    doc,
    texts,
    siteOf(content.model.url),
    pdfDate(content.language, content.scannedAt),
  );
  page.start();

  writeTitle(doc, texts, content);
  writeSummary(page, texts, content.model);
  writeCharts(page, texts, content.model);
  await writer.flow();
  writeTopBroken(page, texts, content.model);
  await writer.flow();
  await writeFattest(writer, page, texts, content.fattest);
  await writeDuplicates(writer, page, texts, content.duplicates);
  writeRuleSummary(page, texts, content);
  await writer.flow();
  await writeAllBroken(writer, page, texts, content.broken);
}

function siteOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Pages with their header (product, site, date) and footer (page n), and room checks. */
class PdfPages {
  #number = 0;

  constructor(
    readonly doc: PDFKit.PDFDocument,
    private readonly texts: PdfTexts,
    private readonly site: string,
    private readonly date: string,
  ) {
    doc.on('pageAdded', () => this.#decorate());
  }

  start(): void {
    this.doc.addPage();
  }

  get left(): number {
    return this.doc.page.margins.left;
  }

  get width(): number {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }

  /** A new page unless `height` points fit below the cursor. */
  room(height: number): void {
    if (this.doc.y + height > this.doc.page.height - this.doc.page.margins.bottom) {
      this.doc.addPage();
    }
  }

  /** The height of a suggestion's reason (wrapped under its link), measured once per text. */
  heightOfReason(text: string): number {
    let height = this.#reasonHeights.get(text);
    if (height === undefined) {
      this.doc.font('regular').fontSize(7.5);
      height = this.doc.heightOfString(text, { width: this.width - 8, lineGap: 0.5 });
      this.#reasonHeights.set(text, height);
    }
    return height;
  }

  /** Reasons are a few fixed texts (suggestionWhy), so this stays small. */
  readonly #reasonHeights = new Map<string, number>();

  heading(text: string, size = 13): void {
    this.room(size + 40);
    this.doc.moveDown(0.6);
    this.doc.font('bold').fontSize(size).fillColor(ink).text(text, this.left, this.doc.y, {
      width: this.width,
    });
    this.doc.moveDown(0.3);
    this.doc.font('regular');
  }

  /** Header and footer, drawn in the margins (the bottom margin lifted so no page is added). */
  #decorate(): void {
    this.#number += 1;
    const { doc } = this;
    const { margins } = doc.page;
    const bottom = margins.bottom;
    margins.bottom = 0;
    doc.font('regular').fontSize(8).fillColor(grey);
    doc.text(`${this.texts.product} · ${this.site} · ${this.date}`, margins.left, 24, {
      width: this.width,
      lineBreak: false,
    });
    doc
      .moveTo(margins.left, 38)
      .lineTo(doc.page.width - margins.right, 38)
      .lineWidth(0.5)
      .strokeColor('#bbb')
      .stroke();
    doc.text(this.texts.page(this.#number), margins.left, doc.page.height - 32, {
      width: this.width,
      align: 'center',
      lineBreak: false,
    });
    margins.bottom = bottom;
    doc.fillColor(ink).fontSize(10);
    doc.x = margins.left;
    doc.y = margins.top;
  }
}

/**
 * `text` cut with an ellipsis to fit `width` at the current font and size: cut where the text's
 * average character width says, then shortened while still too wide (one or two measures).
 */
function fit(doc: PDFKit.PDFDocument, text: string, width: number): string {
  const full = doc.widthOfString(text);
  if (full <= width) return text;
  let cut = Math.floor((text.length * width) / full);
  while (cut > 0 && doc.widthOfString(`${text.slice(0, cut)}…`) > width) {
    cut -= Math.max(1, Math.ceil(cut * 0.03));
  }
  return `${text.slice(0, Math.max(0, cut))}…`;
}

function writeTitle(doc: PDFKit.PDFDocument, texts: PdfTexts, content: ReportPdfContent): void {
  const { model } = content;
  doc.font('bold').fontSize(20).fillColor(ink).text(`${texts.product} ${texts.title}`);
  doc.moveDown(0.2);
  doc.font('regular').fontSize(10);
  doc.text(`${texts.site}: ${model.url}`);
  doc.text(`${texts.scanned}: ${pdfDate(content.language, content.scannedAt)}`);
  doc.text(`${texts.duration}: ${texts.seconds(Math.round(model.duration / 1000))}`);
}

function writeSummary(page: PdfPages, texts: PdfTexts, model: ReportSummary): void {
  page.heading(texts.summary);
  const figures: Array<[string, number]> = [
    [texts.pages, model.numPages],
    [texts.totalLinks, model.totalLinks],
    [texts.uniqueLinks, model.uniqueLinks],
    [texts.badLinks, model.badLinks],
    [texts.uniqueBadLinks, model.uniqueBadLinks],
    [texts.brokenAnchors, model.brokenAnchors],
    [texts.duplicateAnchors, model.duplicateAnchors],
    [texts.fattestPages, model.fattestPages],
    [texts.certificateProblems, model.certificateProblems],
  ];
  const doc = page.doc;
  const columnWidth = page.width / 3;
  const top = doc.y;
  doc.fontSize(9);
  figures.forEach(([label, value], index) => {
    const x = page.left + (index % 3) * columnWidth;
    const y = top + Math.floor(index / 3) * 30;
    doc
      .fillColor(grey)
      .font('regular')
      .text(label, x, y, { width: columnWidth - 8, lineBreak: false });
    doc
      .fillColor(ink)
      .font('bold')
      .fontSize(13)
      .text(String(value), x, y + 11, { lineBreak: false });
    doc.fontSize(9);
  });
  doc.font('regular');
  doc.x = page.left;
  doc.y = top + Math.ceil(figures.length / 3) * 30;
}

function writeCharts(page: PdfPages, texts: PdfTexts, model: ReportSummary): void {
  const doc = page.doc;
  page.heading(texts.charts);
  const half = (page.width - 20) / 2;
  const row = (
    left: [string, (x: number, y: number) => number],
    right: [string, (x: number, y: number) => number],
  ) => {
    page.room(130);
    const top = doc.y;
    doc.font('bold').fontSize(10).fillColor(ink);
    doc.text(left[0], page.left, top, { width: half, lineBreak: false });
    doc.text(right[0], page.left + half + 20, top, { width: half, lineBreak: false });
    doc.font('regular');
    const heights = [left[1](page.left, top + 16), right[1](page.left + half + 20, top + 16)];
    doc.x = page.left;
    doc.y = top + 16 + Math.max(...heights) + 8;
  };
  const reasons = [
    ...model.reasons.map((r) => ({
      label: texts.reason(r.failureReason),
      value: r.numberOfReferences,
    })),
  ];
  // Broken anchors are a failure of their own beside SPEC's reasons, as on the screen.
  if (model.brokenAnchors > 0)
    reasons.push({ label: texts.reason(brokenAnchorReason), value: model.brokenAnchors });
  row(
    [texts.failureReasons, (x, y) => drawDoughnut(doc, x, y, half, reasons, texts.noData)],
    [
      texts.pageSizes,
      (x, y) =>
        drawBars(
          doc,
          x,
          y,
          half,
          model.pageSizeBuckets.map((b) => ({ label: b.label, value: b.pages })),
          texts.noData,
        ),
    ],
  );
  row(
    [
      texts.contentTypes,
      (x, y) =>
        drawBars(
          doc,
          x,
          y,
          half,
          model.contentTypeSizes
            .slice(0, 8)
            .map((t) => ({ label: t.contentType, value: t.totalSize })),
          texts.noData,
          (bytes) => (bytes / MB).toFixed(2),
        ),
    ],
    [
      texts.ruleCategories,
      (x, y) =>
        drawPassFail(
          doc,
          x,
          y,
          half,
          model.ruleCategories.map((c) => ({
            label: texts.category(c.categoryID, c.name),
            passed: c.passed,
            failed: c.failed,
          })),
          { passed: texts.passed, failed: texts.failed },
          texts.noRules,
        ),
    ],
  );
}

/**
 * Two lines per link: the link, then status, reason and where it was found; then its suggested
 * fix when it has one (issue 27): what kind, how sure, the address to use, and why.
 */
function writeLink(page: PdfPages, link: LinkRow, texts: PdfTexts): void {
  const doc = page.doc;
  const why = link.suggestion && texts.suggestionWhy(link.suggestion);
  const whyHeight = why ? page.heightOfReason(why) : 0;
  page.room(24 + (why ? 11 + whyHeight : 0));
  const y = doc.y;
  doc.font('regular').fontSize(8.5).fillColor(ink);
  doc.text(fit(doc, link.targetUri, page.width), page.left, y, { lineBreak: false });
  doc.fontSize(7.5).fillColor(grey);
  const status = [
    link.statusCode ?? '',
    link.failureReason ? texts.reason(link.failureReason) : link.statusDetail,
  ]
    .filter((part) => part !== '')
    .join(' ');
  const where = `${texts.source}: ${link.sourceUri} (${texts.position(link.line, link.column)})`;
  doc.text(fit(doc, `${status} · ${where}`, page.width - 8), page.left + 8, y + 11, {
    lineBreak: false,
  });
  doc.x = page.left;
  doc.y = y + 23;
  if (link.suggestion && why) writeSuggestion(page, link.suggestion, why, texts);
}

/** A suggested fix under its link: "Suggested fix · kind · how sure: address", then why. */
function writeSuggestion(page: PdfPages, suggestion: Suggestion, why: string, texts: PdfTexts) {
  const doc = page.doc;
  const x = page.left + 8;
  const width = page.width - 8;
  const y = doc.y - 1;
  const hops = suggestion.hops ?? 0;
  const label = [
    texts.suggestedFix,
    texts.suggestionKind(suggestion.kind),
    hops > 1 ? texts.suggestionChain(hops) : '',
    suggestion.confidence === null
      ? ''
      : texts.suggestionConfidence(Math.round(suggestion.confidence * 100)),
  ]
    .filter((part) => part !== '')
    .join(' · ');
  doc.font('bold').fontSize(7.5).fillColor(fixColor);
  const head = suggestion.url === null ? label : texts.colon(label);
  doc.text(head, x, y, { lineBreak: false });
  if (suggestion.url !== null) {
    const headWidth = doc.widthOfString(`${head} `);
    doc.font('regular').fillColor(linkColor);
    // No link annotation: pdfkit keeps each one with its page in the page tree to the end
    // (+90 MB and +5.5 MB of PDF for 20,000 fixes); the address is plain text, as the links are.
    doc.text(fit(doc, suggestion.url, width - headWidth), x + headWidth, y, { lineBreak: false });
  }
  doc.font('regular').fillColor(grey);
  doc.text(why, x, y + 10, { width, lineGap: 0.5 });
  doc.x = page.left;
  doc.y += 4;
}

function writeTopBroken(page: PdfPages, texts: PdfTexts, model: ReportSummary): void {
  const doc = page.doc;
  page.heading(texts.topBroken);
  const samples = model.brokenSamples.filter((sample) => sample.links.length > 0);
  if (samples.length === 0) {
    doc.fontSize(9).fillColor(grey).text(texts.noBroken, page.left);
    return;
  }
  for (const sample of samples) {
    page.room(40);
    doc.moveDown(0.3);
    doc
      .font('bold')
      .fontSize(10)
      .fillColor(ink)
      .text(texts.reason(sample.failureReason), page.left);
    doc.font('regular');
    for (const link of sample.links) writeLink(page, link, texts);
  }
}

async function writeFattest(
  writer: PdfWriter,
  page: PdfPages,
  texts: PdfTexts,
  fattest: AsyncIterable<PageRow>,
): Promise<void> {
  const { doc } = writer;
  page.heading(texts.fattestTitle);
  let count = 0;
  for await (const row of fattest) {
    count += 1;
    page.room(14);
    const y = doc.y;
    doc.font('regular').fontSize(8.5).fillColor(ink);
    const size = `${(row.contentSize / MB).toFixed(2)} MB`;
    doc.text(fit(doc, row.uri, page.width - 70), page.left, y, { lineBreak: false });
    doc.text(size, page.left + page.width - 60, y, { width: 60, align: 'right', lineBreak: false });
    doc.x = page.left;
    doc.y = y + 13;
    if (count % 50 === 0) await writer.flow();
  }
  if (count === 0) doc.fontSize(9).fillColor(grey).text(texts.noFattest, page.left);
}

async function writeDuplicates(
  writer: PdfWriter,
  page: PdfPages,
  texts: PdfTexts,
  duplicates: AsyncIterable<DuplicateAnchorRow>,
): Promise<void> {
  const { doc } = writer;
  page.heading(texts.duplicateAnchors);
  let count = 0;
  for await (const row of duplicates) {
    count += 1;
    page.room(24);
    const y = doc.y;
    doc.font('regular').fontSize(8.5).fillColor(ink);
    doc.text(fit(doc, `#${row.anchor} · ${row.uri}`, page.width), page.left, y, {
      lineBreak: false,
    });
    doc.fontSize(7.5).fillColor(grey);
    const places = `${texts.position(row.firstLine, row.firstColumn)} → ${texts.position(row.line, row.column)}`;
    doc.text(places, page.left + 8, y + 11, { lineBreak: false });
    doc.x = page.left;
    doc.y = y + 23;
    if (count % 50 === 0) await writer.flow();
  }
  if (count === 0) doc.fontSize(9).fillColor(grey).text(texts.noDuplicates, page.left);
}

function writeRuleSummary(page: PdfPages, texts: PdfTexts, content: ReportPdfContent): void {
  const doc = page.doc;
  const { model, ruleCounts } = content;
  page.heading(texts.ruleSummary);
  if (ruleCounts.length === 0) {
    doc.fontSize(9).fillColor(grey).text(texts.noRules, page.left);
    return;
  }
  const columns = [page.width - 150, 75, 75];
  const headerY = doc.y;
  doc.font('bold').fontSize(8.5).fillColor(ink);
  doc.text(texts.rule, page.left, headerY, { lineBreak: false });
  doc.text(texts.violations, page.left + columns[0]!, headerY, {
    width: 70,
    align: 'right',
    lineBreak: false,
  });
  doc.text(texts.pagesAffected, page.left + columns[0]! + columns[1]!, headerY, {
    width: 70,
    align: 'right',
    lineBreak: false,
  });
  doc.y = headerY + 14;
  doc.font('regular');
  const categoryName = new Map(
    model.ruleCategories.map((c) => [c.categoryID, texts.category(c.categoryID, c.name)]),
  );
  for (const rule of ruleCounts) {
    page.room(14);
    const y = doc.y;
    const label = `${rule.ruleId} ${rule.ruleName} (${categoryName.get(rule.ruleCategoryID) ?? rule.ruleCategoryID})`;
    doc.fillColor(ink).text(fit(doc, label, columns[0]! - 6), page.left, y, { lineBreak: false });
    doc.text(String(rule.findings), page.left + columns[0]!, y, {
      width: 70,
      align: 'right',
      lineBreak: false,
    });
    doc.text(String(rule.pages), page.left + columns[0]! + columns[1]!, y, {
      width: 70,
      align: 'right',
      lineBreak: false,
    });
    doc.x = page.left;
    doc.y = y + 13;
  }
  if (model.ruleSamples.length === 0) return;
  page.heading(texts.ruleSamples, 11);
  for (const sample of model.ruleSamples) {
    page.room(36);
    const y = doc.y;
    doc.font('bold').fontSize(8.5).fillColor(ink);
    doc.text(fit(doc, `${sample.ruleId} ${sample.ruleName}`, page.width), page.left, y, {
      lineBreak: false,
    });
    doc.font('regular').fontSize(7.5).fillColor(grey);
    doc.text(
      fit(doc, `${sample.uri} (${texts.position(sample.line, sample.column)})`, page.width - 8),
      page.left + 8,
      y + 11,
      { lineBreak: false },
    );
    doc.text(
      fit(doc, sample.message ?? sample.snippet ?? '', page.width - 8),
      page.left + 8,
      y + 21,
      { lineBreak: false },
    );
    doc.x = page.left;
    doc.y = y + 33;
  }
}

async function writeAllBroken(
  writer: PdfWriter,
  page: PdfPages,
  texts: PdfTexts,
  broken: AsyncIterable<LinkRow>,
): Promise<void> {
  const { doc } = writer;
  doc.addPage();
  page.heading(texts.allBroken);
  let count = 0;
  for await (const link of broken) {
    count += 1;
    writeLink(page, link, texts);
    if (count % 50 === 0) await writer.flow();
  }
  if (count === 0) doc.fontSize(9).fillColor(grey).text(texts.noBroken, page.left);
}
