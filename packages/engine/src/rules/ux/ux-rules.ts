import type { BuiltInRule } from '../built-in-rule.js';
import { consoleError } from './console.js';
import { autoplayMedia, headingSkip, iframeTitleMissing, mixedContent } from './content.js';
import { emptyButton, inputWithoutLabel, positiveTabindex, tinyTapTarget } from './controls.js';
import { faviconMissing, langMissing, viewportMissing, zoomDisabled } from './document.js';
import { emptyLink, targetBlankNoopener, vagueLinkText } from './links.js';

/** Category 5, User Experience. */
export const uxRules: readonly BuiltInRule[] = [
  viewportMissing,
  zoomDisabled,
  langMissing,
  vagueLinkText,
  emptyLink,
  emptyButton,
  targetBlankNoopener,
  faviconMissing,
  mixedContent,
  inputWithoutLabel,
  tinyTapTarget,
  headingSkip,
  autoplayMedia,
  positiveTabindex,
  iframeTitleMissing,
  consoleError,
];
