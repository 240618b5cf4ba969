import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import { attr, hasLabelAttribute, someInside, textData } from '../dom.js';

/**
 * Whether an element has a name assistive technology can read: label attributes, visible text,
 * or an image with alt text (or an SVG with a label) inside it. A simplified reading of the
 * accessible-name computation that errs towards "named" to avoid false alarms, also when the
 * element is too large to search.
 */
export function hasAccessibleName(element: Element): boolean {
  return hasLabelAttribute(element) || someInside(element, namesIt, isShown) !== false;
}

/** Content that names the element it is in. */
function namesIt(node: AnyNode): boolean {
  if (isText(node)) return textData(node).trim() !== '';
  if (!isTag(node) || attr(node, 'aria-hidden') === 'true') return false;
  if (node.name === 'img' || node.name === 'area') return Boolean(attr(node, 'alt'));
  if (node.name === 'input') return Boolean(attr(node, 'alt') || attr(node, 'value'));
  return node.name === 'svg' && hasLabelAttribute(node);
}

/** Content hidden from assistive technology names nothing. */
const isShown = (node: AnyNode): boolean => !isTag(node) || attr(node, 'aria-hidden') !== 'true';
