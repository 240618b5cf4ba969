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

/** A declaration of the element's style, in pixels; most elements have no style to search. */
function stylePixels(element: Element, pattern: RegExp): string | undefined {
  const style = element.attribs.style;
  return style === undefined ? undefined : pattern.exec(style)?.[1];
}

function isEnlarged(element: Element): boolean {
  const style = element.attribs.style;
  return style !== undefined && enlarges.test(style);
}

/** The size declared in the style or width/height attributes, when both are in pixels. */
function declaredSize(element: Element): PixelSize | undefined {
  if (isEnlarged(element)) return undefined;
  const width = Number(stylePixels(element, styleWidth) ?? attr(element, 'width') ?? Number.NaN);
  const height = Number(stylePixels(element, styleHeight) ?? attr(element, 'height') ?? Number.NaN);
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
  if (isEnlarged(element)) return undefined;
  const image = onlyImage(element);
  return image ? declaredSize(image) : undefined;
}
