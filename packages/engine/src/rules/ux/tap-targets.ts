import { isTag, isText, type Element } from 'domhandler';
import { attr, textData } from '../dom.js';

export interface PixelSize {
  width: number;
  height: number;
}

const buttonInputs = new Set(['image', 'button', 'submit', 'reset']);
const styleWidth = /(?:^|[;\s])width\s*:\s*(\d+(?:\.\d+)?)px/i;
const styleHeight = /(?:^|[;\s])height\s*:\s*(\d+(?:\.\d+)?)px/i;
// Padding or minimum sizes make the target larger than its declared size: no verdict then.
const enlarges = /(?:^|[;\s])(?:padding|min-width|min-height)\s*:/i;

function isTapTarget(element: Element): boolean {
  if (element.name === 'a') return element.attribs.href !== undefined;
  if (element.name === 'button') return true;
  if (element.name === 'input') return buttonInputs.has(attr(element, 'type')?.toLowerCase() ?? '');
  return false;
}

/** The size declared in the style or width/height attributes, when both are in pixels. */
function declaredSize(element: Element): PixelSize | undefined {
  const style = element.attribs.style;
  // (Most elements have no style: no need to search one.)
  if (style !== undefined && enlarges.test(style)) return undefined;
  const styleWidthPx = style === undefined ? undefined : styleWidth.exec(style)?.[1];
  const styleHeightPx = style === undefined ? undefined : styleHeight.exec(style)?.[1];
  const width = Number(styleWidthPx ?? attr(element, 'width') ?? Number.NaN);
  const height = Number(styleHeightPx ?? attr(element, 'height') ?? Number.NaN);
  return Number.isFinite(width) && Number.isFinite(height) ? { width, height } : undefined;
}

/** The one image that makes up a link or button with no text of its own, if that is all it holds. */
function onlyImage(element: Element): Element | undefined {
  let image: Element | undefined;
  for (const child of element.children) {
    if (isText(child) && textData(child).trim() !== '') return undefined;
    if (!isTag(child)) continue;
    if ((child.name !== 'img' && child.name !== 'svg') || image) return undefined;
    image = child;
  }
  return image;
}

/**
 * The size of a link or button when the HTML alone tells it: declared on the element itself, or
 * on the single image (icon) that is its only content. Undefined when CSS decides.
 */
export function tapTargetSize(element: Element): PixelSize | undefined {
  if (!isTapTarget(element)) return undefined;
  const own = declaredSize(element);
  if (own || element.name === 'input') return own;
  const style = element.attribs.style;
  if (style !== undefined && enlarges.test(style)) return undefined;
  const image = onlyImage(element);
  return image ? declaredSize(image) : undefined;
}
