import { z } from 'zod';

/**
 * A suggested fix for a link (issue 27): what to put instead, and why. The engine works it out
 * at the end of a scan; the report screen, the CSV export and the CLI show it beside the link.
 *
 * - `redirect`: the link answers through redirects; link to where they end (`hops` > 1 is a chain).
 * - `closest-page`: an internal link answers 404/410; the site's page that clearly matches best,
 *   found by its path (`path`), its file name elsewhere (`file-name`) or its title (`title`).
 * - `closest-anchor`: the #fragment is not on the target page; the id there that is closest.
 * - `https`: an http:// link whose host serves the same page over https.
 * - `explain`: no address to offer, only the plain reason (`certificate`, `timeout`, `dns`) and
 *   what the site owner can do.
 */
export const suggestionKinds = [
  'redirect',
  'closest-page',
  'closest-anchor',
  'https',
  'explain',
] as const;
export type SuggestionKind = (typeof suggestionKinds)[number];

export const suggestionBases = [
  'redirect',
  'redirect-chain',
  'path',
  'file-name',
  'title',
  'anchor',
  'https',
  'certificate',
  'timeout',
  'dns',
] as const;
export type SuggestionBasis = (typeof suggestionBases)[number];

export const suggestionSchema = z.object({
  kind: z.enum(suggestionKinds),
  /** Why, as a code the screen and the CLI put into words (suggestionWhy). */
  basis: z.enum(suggestionBases),
  /** The address to link to instead; null for `explain`. */
  url: z.string().nullable(),
  /** 0–1, for the guesses (`closest-page`, `closest-anchor`); null for facts. */
  confidence: z.number().min(0).max(1).nullable(),
  /** Redirects between the link and its final address (`redirect` only). */
  hops: z.number().int().nullable(),
});
export type Suggestion = z.infer<typeof suggestionSchema>;

type Language = 'en' | 'zh-CN';

const why: Record<Language, Record<SuggestionBasis, string>> = {
  en: {
    redirect: 'The link redirects: update it to the final address and save a redirect.',
    'redirect-chain':
      'The link goes through a chain of {hops} redirects: update it to the final address.',
    path: 'Page not found; the page with the most similar address is the likely new home.',
    'file-name': 'Page not found; a page with the same file name exists elsewhere on the site.',
    title: 'Page not found; a page whose title matches the link text exists.',
    anchor: 'The target page has no such id; this is the closest id on it.',
    https: 'The host serves the same page over https: link to the secure address.',
    certificate:
      'The site’s certificate is not valid (expired, self-signed or for another name). Its owner must renew or fix the certificate; until then remove or replace the link.',
    timeout:
      'The server did not answer in time. It may be overloaded or down: try again later, or ask its owner to check the server.',
    dns: 'The host name does not exist (DNS lookup failed). Check the address for typos; if the domain has lapsed, remove the link.',
  },
  'zh-CN': {
    redirect: '该链接会重定向：请改为最终地址，省去一次重定向。',
    'redirect-chain': '该链接经过 {hops} 次连续重定向：请改为最终地址。',
    path: '页面不存在；地址最相近的页面很可能是它的新位置。',
    'file-name': '页面不存在；网站其他位置有同名文件的页面。',
    title: '页面不存在；有一个标题与链接文字相符的页面。',
    anchor: '目标页面没有该 id；这是页面上最接近的 id。',
    https: '该主机通过 https 提供相同页面：请链接到安全地址。',
    certificate:
      '该网站的证书无效（已过期、自签名或属于其他域名）。网站所有者需要续订或修复证书；在此之前请删除或替换该链接。',
    timeout: '服务器未及时响应，可能过载或已停止运行：请稍后重试，或请其所有者检查服务器。',
    dns: '该主机名不存在（DNS 查询失败）。请检查地址是否有拼写错误；如果域名已失效，请删除该链接。',
  },
};

/** The suggestion's reason in words, in `language` (English unless zh). */
export function suggestionWhy(suggestion: Suggestion, language: string = 'en'): string {
  const texts = language.toLowerCase().startsWith('zh') ? why['zh-CN'] : why.en;
  return texts[suggestion.basis].replace('{hops}', String(suggestion.hops ?? ''));
}

/** One line for text and CSV outputs: "→ URL (confidence 82%): why". */
export function suggestionLine(suggestion: Suggestion, language: string = 'en'): string {
  const target = suggestion.url === null ? '' : `→ ${suggestion.url} `;
  const confidence =
    suggestion.confidence === null ? '' : `(${Math.round(suggestion.confidence * 100)}%) `;
  return `${target}${confidence}${suggestionWhy(suggestion, language)}`.trim();
}
