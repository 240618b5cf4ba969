// Content that surprises, hides or endangers the visitor.
import { RuleCategory } from '@linkaudit/core';
import type { PageRule } from '../built-in-rule.js';
import { attr, hasAttr, hasLabelAttribute } from '../dom.js';
import { subresources } from '../resources.js';

export const mixedContent: PageRule = {
  id: 5009,
  slug: 'ux/mixed-content',
  name: 'Mixed content',
  category: RuleCategory.UserExperience,
  note: 'An https page loads a script, style, image, frame or media file, or submits a form, over plain http.',
  prompt: 'Load every resource over https (and fix forms that post to http).',
  check(page, report) {
    if (page.url?.protocol !== 'https:') return;
    // Relative addresses inherit https, unless a <base href> says otherwise: only then is
    // resolving every address worth its cost.
    const httpBase = page.resolve('.')?.protocol === 'http:';
    const insecure = (url: string): boolean =>
      /^http:/i.test(url) || (httpBase && page.resolve(url)?.protocol === 'http:');
    for (const { element, urls } of subresources(page)) {
      const first = urls.find(insecure);
      if (first) report(element, `Loads ${first}`);
    }
    for (const form of page.all('form')) {
      const action = attr(form, 'action');
      if (action && insecure(action)) report(form, `Submits to ${action}`);
    }
  },
};

const headingLevels = new Map([1, 2, 3, 4, 5, 6].map((level) => [`h${level}`, level]));

export const headingSkip: PageRule = {
  id: 5012,
  slug: 'ux/heading-level-skipped',
  name: 'Heading level skipped',
  category: RuleCategory.UserExperience,
  note: 'A heading jumps more than one level down (an <h2> followed by an <h4>), which breaks the outline screen-reader users navigate by.',
  prompt: 'Use the next heading level down (h2 → h3) and style headings with CSS, not by level.',
  check(page, report) {
    let previous = 0;
    for (const element of page.elements) {
      const current = headingLevels.get(element.name);
      if (current === undefined) continue;
      if (previous > 0 && current > previous + 1) {
        report(element, `<h${current}> after <h${previous}>`);
      }
      previous = current;
    }
  },
};

export const autoplayMedia: PageRule = {
  id: 5013,
  slug: 'ux/autoplay-media',
  name: 'Media plays sound automatically',
  category: RuleCategory.UserExperience,
  note: 'A <video> or <audio> starts by itself with sound.',
  prompt: 'Remove autoplay, or mute autoplaying video and give it visible controls.',
  check(page, report) {
    for (const media of [...page.all('video'), ...page.all('audio')]) {
      const audible = media.name === 'audio' || !hasAttr(media, 'muted');
      if (hasAttr(media, 'autoplay') && audible) report(media);
    }
  },
};

export const iframeTitleMissing: PageRule = {
  id: 5015,
  slug: 'ux/iframe-title-missing',
  name: 'Frame without title',
  category: RuleCategory.UserExperience,
  note: 'An <iframe> has no title, so screen-reader users cannot tell what it contains.',
  prompt: 'Give every iframe a short title, e.g. title="Map of our office".',
  check(page, report) {
    for (const frame of page.all('iframe')) {
      const hidden = attr(frame, 'aria-hidden') === 'true' || hasAttr(frame, 'hidden');
      if (!hidden && !hasLabelAttribute(frame)) report(frame);
    }
  },
};
