/**
 * The report's charts drawn as PDF vector paths (not pictures): a doughnut with its legend for
 * shares (failure reasons, rule categories) and horizontal bars for distributions (page sizes,
 * content types). Each draws into a box at (x, y) and answers the height it took.
 */

export interface ChartSlice {
  label: string;
  value: number;
}

/** The screen's palette (ECharts' default), so the PDF's colours match the report screen. */
const palette = [
  '#5470c6',
  '#91cc75',
  '#fac858',
  '#ee6666',
  '#73c0de',
  '#3ba272',
  '#fc8452',
  '#9a60b4',
  '#ea7ccc',
];

export function colourOf(index: number): string {
  return palette[index % palette.length] ?? '#5470c6';
}

const LEGEND_ROW = 13;

/** A doughnut of `slices` (radius 42) with a legend to its right; empty slices are left out. */
export function drawDoughnut(
  doc: PDFKit.PDFDocument,
  x: number,
  y: number,
  width: number,
  slices: ChartSlice[],
  emptyText: string,
): number {
  const shown = slices.filter((slice) => slice.value > 0);
  const total = shown.reduce((sum, slice) => sum + slice.value, 0);
  if (total === 0) {
    doc.fontSize(9).fillColor('#666').text(emptyText, x, y, { width });
    return 16;
  }
  const radius = 42;
  const inner = 24;
  const cx = x + radius;
  const cy = y + radius;
  let start = -Math.PI / 2;
  shown.forEach((slice, index) => {
    const sweep = (slice.value / total) * Math.PI * 2;
    drawRingSlice(doc, cx, cy, radius, inner, start, start + sweep);
    doc.fillColor(colourOf(index)).fill();
    start += sweep;
  });
  const legendX = x + radius * 2 + 12;
  const legendWidth = width - radius * 2 - 12;
  doc.fontSize(8);
  shown.forEach((slice, index) => {
    const rowY = y + index * LEGEND_ROW;
    doc
      .rect(legendX, rowY + 1, 7, 7)
      .fillColor(colourOf(index))
      .fill();
    doc.fillColor('#222').text(`${slice.label}: ${slice.value}`, legendX + 11, rowY, {
      width: legendWidth - 11,
      lineBreak: false,
      ellipsis: true,
    });
  });
  return Math.max(radius * 2, shown.length * LEGEND_ROW) + 6;
}

/** One slice of a ring, as a closed path (outer arc, inner arc back). */
function drawRingSlice(
  doc: PDFKit.PDFDocument,
  cx: number,
  cy: number,
  outer: number,
  inner: number,
  from: number,
  to: number,
): void {
  // A full ring is two halves: an arc of 2π has the same start and end point.
  if (to - from >= Math.PI * 2 - 1e-6) {
    drawRingSlice(doc, cx, cy, outer, inner, from, from + Math.PI);
    drawRingSlice(doc, cx, cy, outer, inner, from + Math.PI, to);
    return;
  }
  const point = (r: number, a: number) => [cx + r * Math.cos(a), cy + r * Math.sin(a)] as const;
  const large = to - from > Math.PI ? 1 : 0;
  const [ox1, oy1] = point(outer, from);
  const [ox2, oy2] = point(outer, to);
  const [ix2, iy2] = point(inner, to);
  const [ix1, iy1] = point(inner, from);
  doc.path(
    `M ${ox1} ${oy1} A ${outer} ${outer} 0 ${large} 1 ${ox2} ${oy2} ` +
      `L ${ix2} ${iy2} A ${inner} ${inner} 0 ${large} 0 ${ix1} ${iy1} Z`,
  );
}

const BAR_ROW = 14;

/** Horizontal bars of `slices`, labels on the left, values at the bar's end. */
export function drawBars(
  doc: PDFKit.PDFDocument,
  x: number,
  y: number,
  width: number,
  slices: ChartSlice[],
  emptyText: string,
  format: (value: number) => string = String,
): number {
  const max = Math.max(0, ...slices.map((slice) => slice.value));
  if (slices.length === 0 || max === 0) {
    doc.fontSize(9).fillColor('#666').text(emptyText, x, y, { width });
    return 16;
  }
  const labelWidth = Math.min(110, width * 0.4);
  const barSpace = width - labelWidth - 50;
  doc.fontSize(8);
  slices.forEach((slice, index) => {
    const rowY = y + index * BAR_ROW;
    doc.fillColor('#222').text(slice.label, x, rowY, {
      width: labelWidth - 4,
      lineBreak: false,
      ellipsis: true,
    });
    const barWidth = Math.max(slice.value > 0 ? 1 : 0, (slice.value / max) * barSpace);
    doc
      .rect(x + labelWidth, rowY + 1, barWidth, BAR_ROW - 5)
      .fillColor(colourOf(index))
      .fill();
    doc.fillColor('#222').text(format(slice.value), x + labelWidth + barWidth + 4, rowY, {
      lineBreak: false,
    });
  });
  return slices.length * BAR_ROW + 6;
}

/** Passed/failed stacked bars, one per rule category, with a legend above. */
export function drawPassFail(
  doc: PDFKit.PDFDocument,
  x: number,
  y: number,
  width: number,
  rows: Array<{ label: string; passed: number; failed: number }>,
  legend: { passed: string; failed: string },
  emptyText: string,
): number {
  if (rows.length === 0) {
    doc.fontSize(9).fillColor('#666').text(emptyText, x, y, { width });
    return 16;
  }
  const passedColour = '#91cc75';
  const failedColour = '#ee6666';
  doc.fontSize(8);
  doc
    .rect(x, y + 1, 7, 7)
    .fillColor(passedColour)
    .fill();
  doc.fillColor('#222').text(legend.passed, x + 11, y, { lineBreak: false });
  doc
    .rect(x + 70, y + 1, 7, 7)
    .fillColor(failedColour)
    .fill();
  doc.fillColor('#222').text(legend.failed, x + 81, y, { lineBreak: false });
  const labelWidth = Math.min(110, width * 0.4);
  const barSpace = width - labelWidth - 70;
  rows.forEach((row, index) => {
    const rowY = y + (index + 1) * BAR_ROW;
    const total = row.passed + row.failed;
    doc.fillColor('#222').text(row.label, x, rowY, {
      width: labelWidth - 4,
      lineBreak: false,
      ellipsis: true,
    });
    const passedWidth = total === 0 ? 0 : (row.passed / total) * barSpace;
    const failedWidth = total === 0 ? 0 : barSpace - passedWidth;
    doc
      .rect(x + labelWidth, rowY + 1, passedWidth, BAR_ROW - 5)
      .fillColor(passedColour)
      .fill();
    doc
      .rect(x + labelWidth + passedWidth, rowY + 1, failedWidth, BAR_ROW - 5)
      .fillColor(failedColour)
      .fill();
    doc
      .fillColor('#222')
      .text(`${row.passed} / ${row.failed}`, x + labelWidth + barSpace + 4, rowY, {
        lineBreak: false,
      });
  });
  return (rows.length + 1) * BAR_ROW + 6;
}
