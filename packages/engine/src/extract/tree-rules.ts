import { NameTable } from './name-table.js';

// The tree rules of htmlparser2's Parser (HTML mode), for the readers that drive its tokenizer
// themselves (TagReader, the rules' page builder) and must build the tree it would build.

/** Elements never closed, as htmlparser2's Parser knows them. */
export const voidElements = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Elements whose content is HTML again inside SVG or MathML (names as adjusted for SVG). */
export const htmlIntegrationElements = new Set([
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'annotation-xml',
  'foreignObject',
  'desc',
  'title',
]);

const formTags = new Set([
  'input',
  'option',
  'optgroup',
  'select',
  'button',
  'datalist',
  'textarea',
]);
const pTag = new Set(['p']);
const headingTags = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const tableSectionTags = new Set(['thead', 'tbody']);
const ddtTags = new Set(['dd', 'dt']);
const rtpTags = new Set(['rt', 'rp']);

/** An opening tag closes these elements when they are the innermost ones open. */
export const openImpliesClose = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['a', new Set(['a'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', ddtTags],
  ['dt', ddtTags],
  ['rt', rtpTags],
  ['rp', rtpTags],
  ['tbody', tableSectionTags],
  ['tfoot', tableSectionTags],
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((name) => [name, headingTags] as const),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map(
    (name) => [name, formTags] as const,
  ),
  ...[
    'p',
    'address',
    'article',
    'aside',
    'blockquote',
    'details',
    'div',
    'dl',
    'fieldset',
    'figcaption',
    'figure',
    'footer',
    'form',
    'header',
    'hr',
    'main',
    'nav',
    'ol',
    'pre',
    'section',
    'table',
    'ul',
  ].map((name) => [name, pTag] as const),
]);

/** SVG's camel-case element names, by their lower-case form. */
export const svgTagNameAdjustments = new Map(
  [
    ...['altGlyph', 'altGlyphDef', 'altGlyphItem', 'animateColor', 'animateMotion'],
    ...['animateTransform', 'clipPath', 'feBlend', 'feColorMatrix', 'feComponentTransfer'],
    ...['feComposite', 'feConvolveMatrix', 'feDiffuseLighting', 'feDisplacementMap'],
    ...['feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA', 'feFuncB', 'feFuncG', 'feFuncR'],
    ...['feGaussianBlur', 'feImage', 'feMerge', 'feMergeNode', 'feMorphology', 'feOffset'],
    ...['fePointLight', 'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence'],
    ...['foreignObject', 'glyphRef', 'linearGradient', 'radialGradient', 'textPath'],
  ].map((name) => [name.toLowerCase(), name] as const),
);

/** Tag names known in advance: most tags are one of these, so no string is made for them. */
export const commonTagNames = new NameTable(
  [
    ...voidElements,
    ...openImpliesClose.keys(),
    ...'html head body title style script noscript a span b i em strong small code'.split(' '),
    ...'picture video audio iframe object svg math template label sup sub u s q'.split(' '),
    ...'cite abbr time mark'.split(' '),
  ].map((name) => [name, name] as const),
);
