import type { BuiltInRule } from '../built-in-rule.js';
import { canonicalInvalid, canonicalMissing } from './canonical.js';
import { imageAltMissing, jsonLdInvalid } from './content.js';
import {
  descriptionDuplicate,
  descriptionMissing,
  descriptionTooLong,
  descriptionTooShort,
} from './description.js';
import { h1Missing, h1Multiple } from './headings.js';
import { hreflangInvalid } from './hreflang.js';
import { metaRefresh, noindexFound } from './indexing.js';
import { titleDuplicate, titleMissing, titleTooLong, titleTooShort } from './title.js';

/** Category 4, SEO. */
export const seoRules: readonly BuiltInRule[] = [
  titleMissing,
  titleTooLong,
  titleTooShort,
  titleDuplicate,
  descriptionMissing,
  descriptionTooLong,
  descriptionTooShort,
  descriptionDuplicate,
  h1Missing,
  h1Multiple,
  canonicalMissing,
  canonicalInvalid,
  noindexFound,
  imageAltMissing,
  hreflangInvalid,
  metaRefresh,
  jsonLdInvalid,
];
