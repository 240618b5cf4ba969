// Images, as far as the HTML tells: their format, declared size and responsive sources.
import { RuleCategory } from '@linkaudit/core';
import { parseSrcset } from '../../extract/srcset.js';
import type { PageRule } from '../built-in-rule.js';
import { attr } from '../dom.js';
import { subresources } from '../resources.js';

// Uncompressed or print formats: a BMP or TIFF photo is many times its WebP/AVIF/JPEG size.
const legacyFormat = /(?:\.(bmp|tiff?)(?:[?#]|$))|^data:image\/(bmp|tiff)[;,]/i;
const imageElements = new Set(['img', 'source', 'input', 'video', 'link']);

export const legacyImageFormat: PageRule = {
  id: 1010,
  slug: 'performance/legacy-image-format',
  name: 'Unoptimised image format',
  category: RuleCategory.WebPerformance,
  note: 'An image is served as BMP or TIFF, formats without web-grade compression.',
  prompt: 'Convert the image to WebP, AVIF, JPEG or PNG.',
  check(page, report) {
    for (const { element, urls } of subresources(page)) {
      if (!imageElements.has(element.name)) continue;
      for (const url of urls) {
        const format = legacyFormat.exec(url);
        if (format) {
          report(
            element,
            `${(format[1] ?? format[2] ?? '').toUpperCase()} image: ${url.slice(0, 80)}`,
          );
          break;
        }
      }
    }
  },
};

// A width or height set in an inline style reserves the space as well as the attribute does.
const styleWidth = /(?:^|[;\s])width\s*:/i;
const styleHeight = /(?:^|[;\s])(?:height|aspect-ratio)\s*:/i;

export const imageWithoutDimensions: PageRule = {
  id: 1011,
  slug: 'performance/image-without-dimensions',
  name: 'Image without width and height',
  category: RuleCategory.WebPerformance,
  note: 'An <img> has no width and height, so the page jumps when it loads (layout shift).',
  prompt: 'Give every image width and height attributes (CSS can still scale it).',
  check(page, report) {
    for (const image of page.all('img')) {
      const style = image.attribs.style ?? '';
      const sized =
        (attr(image, 'width') || styleWidth.test(style)) &&
        (attr(image, 'height') || styleHeight.test(style));
      if (!sized) report(image);
    }
  },
};

export const srcsetWithoutSizes: PageRule = {
  id: 1012,
  slug: 'performance/srcset-without-sizes',
  name: 'srcset without sizes',
  category: RuleCategory.WebPerformance,
  note: 'A srcset lists widths (w) but there is no sizes, so the browser assumes full screen width and picks too large an image.',
  prompt:
    'Add a sizes attribute that says how wide the image is shown, e.g. sizes="(max-width: 600px) 100vw, 300px".',
  check(page, report) {
    for (const element of [...page.all('img'), ...page.all('source')]) {
      const srcset = element.attribs.srcset;
      if (!srcset || attr(element, 'sizes')) continue;
      const widths = parseSrcset(srcset).length > 0 && /\d\s*w\s*(?:,|$)/i.test(srcset);
      if (widths) report(element);
    }
  },
};
