import type { BuiltInRule } from '../built-in-rule.js';
import { domDepth, domSize } from './dom-size.js';
import { imageWithoutDimensions, legacyImageFormat, srcsetWithoutSizes } from './images.js';
import { inlineDataUri, largeInlineCode, tooManyRequests } from './page-content.js';
import { cssImport, documentWrite, renderBlockingScript } from './scripts.js';
import { missingCacheHeaders, pageWeight, redirects, uncompressedResponse } from './transfer.js';

/** Category 1, Web Performance. */
export const performanceRules: readonly BuiltInRule[] = [
  pageWeight,
  tooManyRequests,
  uncompressedResponse,
  missingCacheHeaders,
  renderBlockingScript,
  cssImport,
  inlineDataUri,
  largeInlineCode,
  redirects,
  legacyImageFormat,
  imageWithoutDimensions,
  srcsetWithoutSizes,
  domSize,
  domDepth,
  documentWrite,
];
