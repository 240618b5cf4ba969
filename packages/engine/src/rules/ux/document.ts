// Page-wide settings that decide how the page behaves on phones and in assistive technology.
import { RuleCategory } from '@linkaudit/core';
import type { PageRule } from '../built-in-rule.js';
import { attr, metaNamed, tokens } from '../dom.js';

export const viewportMissing: PageRule = {
  id: 5001,
  slug: 'ux/viewport-missing',
  name: 'Viewport meta tag missing',
  category: RuleCategory.UserExperience,
  note: 'Without <meta name="viewport"> phones render the page at desktop width, zoomed out.',
  prompt: 'Add <meta name="viewport" content="width=device-width, initial-scale=1"> to the <head>.',
  check(page, report) {
    if (metaNamed(page.all('meta'), 'viewport').length === 0) report(page.headSpot);
  },
};

/** The viewport's `key=value` settings, lower-cased. */
function viewportSettings(content: string): Map<string, string> {
  const settings = new Map<string, string>();
  for (const part of content.toLowerCase().split(/[,;]/)) {
    const [key = '', value = ''] = part.split('=').map((piece) => piece.trim());
    if (key) settings.set(key, value);
  }
  return settings;
}

export const zoomDisabled: PageRule = {
  id: 5002,
  slug: 'ux/zoom-disabled',
  name: 'Zoom disabled',
  category: RuleCategory.UserExperience,
  note: 'The viewport sets user-scalable=no or a maximum-scale below 2, so people cannot zoom in.',
  prompt: 'Remove user-scalable=no and maximum-scale from the viewport meta tag.',
  check(page, report) {
    for (const meta of metaNamed(page.all('meta'), 'viewport')) {
      const settings = viewportSettings(meta.attribs.content ?? '');
      const scalable = settings.get('user-scalable');
      const maximum = Number.parseFloat(settings.get('maximum-scale') ?? '');
      if (scalable === 'no' || scalable === '0') report(meta, `user-scalable=${scalable}`);
      else if (maximum < 2) report(meta, `maximum-scale=${maximum}`);
    }
  },
};

export const langMissing: PageRule = {
  id: 5003,
  slug: 'ux/lang-missing',
  name: 'Page language not declared',
  category: RuleCategory.UserExperience,
  note: 'The <html> element has no lang attribute, so screen readers and translators guess the language.',
  prompt: 'Declare the language on the root element, e.g. <html lang="en">.',
  check(page, report) {
    const root = page.first('html');
    if (!root || !attr(root, 'lang')) report(root ?? 0);
  },
};

export const faviconMissing: PageRule = {
  id: 5008,
  slug: 'ux/favicon-missing',
  name: 'No favicon link',
  category: RuleCategory.UserExperience,
  note: 'The page does not link an icon (<link rel="icon">), so tabs and bookmarks show a blank icon unless /favicon.ico exists.',
  prompt: 'Add <link rel="icon" href="/favicon.svg"> (or .png/.ico) to the <head>.',
  check(page, report) {
    const icon = page.all('link').some((link) => tokens(link, 'rel').includes('icon'));
    if (!icon) report(page.headSpot);
  },
};
