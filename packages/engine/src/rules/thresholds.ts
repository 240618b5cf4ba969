/**
 * Every number a built-in rule compares against, in one place, each with where it comes from.
 * The explanation pages in docs/rules/ quote them; change both together.
 */
export const thresholds = {
  /** A page's HTML alone over 100 KiB is slow on mobile networks before any image loads. */
  maxHtmlBytes: 100 * 1024,
  /** More sub-resources than this (scripts, styles, images, frames, media) per page. */
  maxRequests: 50,
  /** Below about one TCP packet compression saves nothing worth a header (Lighthouse: 1.4 KB). */
  minCompressibleBytes: 1400,
  /** An inline `data:` URI longer than this is bytes the browser cannot cache separately. */
  maxDataUriChars: 4096,
  /** An inline script or style block longer than this belongs in a cacheable file. */
  maxInlineBlockChars: 20_000,
  /** Lighthouse's "avoid an excessive DOM size": 1,500 elements, 32 levels deep. */
  maxDomElements: 1500,
  maxDomDepth: 32,
  /** Google shows about 50–60 characters of a title and 150–160 of a description. */
  maxTitleChars: 60,
  minTitleChars: 10,
  maxDescriptionChars: 160,
  minDescriptionChars: 50,
  /** WCAG 2.2 success criterion 2.5.8, target size (minimum): 24 by 24 CSS pixels. */
  minTapTargetPx: 24,
  /** The first violations of one rule on one page are reported; the rest add nothing. */
  maxViolationsPerRuleAndPage: 100,
} as const;
