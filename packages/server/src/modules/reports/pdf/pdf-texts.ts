import {
  suggestionWhy,
  type AccountLanguage,
  type Suggestion,
  type SuggestionKind,
} from '@linkaudit/core';

/**
 * The PDF report's texts in both interface languages. They live with the server (which draws
 * the PDF) rather than in the web app's locale JSON; the object type makes every key exist in
 * both languages. Failure labels, rule names and URLs stay as stored (SPEC: rule texts are
 * English only).
 */
/**
 * Failure labels in Chinese, as the web app's locale shows them (`failureReason` of
 * zh-CN/translation.json; pdf-texts.test.ts keeps the two equal). English shows SPEC's labels.
 */
export const zhFailureReasons: Readonly<Record<string, string>> = {
  'Time Out': '超时',
  'Invalid Remote Name': '无效的远程名称',
  'Invalid Certificate': '无效证书',
  'Authentication Required': '需要身份验证',
  'Source Attribute Missing': '缺少来源属性',
  'Not Found': '未找到',
  'Engine Exception': '引擎异常',
  'Invalid Format': '格式无效',
  'Service Unavailable': '服务不可用',
  'Internal Server Error': '服务器内部错误',
  'Bad Request': '错误请求',
  'Broken Anchor': '失效锚点',
  'bot-protection': '反爬虫防护',
  'rate-limited': '访问频率受限',
  'needs-sign-in': '需要登录',
  'host-too-slow': '主机响应过慢',
  'soft-404': '软 404',
  'login-wall': '登录墙',
};

/**
 * Why a link could not be verified, and a working link's warning (issue 35), are stored as
 * slugs, not SPEC labels: English names them as the web app's English locale does.
 */
const enCauseLabels: Readonly<Record<string, string>> = {
  'bot-protection': 'Bot protection',
  'rate-limited': 'Rate limited',
  'needs-sign-in': 'Sign-in needed',
  'host-too-slow': 'Host too slow',
  'soft-404': 'Soft 404',
  'login-wall': 'Login wall',
};

/**
 * Rule category names in Chinese, as the web app's locale shows them (`ruleCategory` of
 * zh-CN/translation.json, keyed c1…c5 and other; pdf-texts.test.ts keeps the two equal).
 */
export const zhRuleCategories: Readonly<Record<string, string>> = {
  c1: '网页性能',
  c2: '拼写检查',
  c3: '有效 HTML',
  c4: 'SEO',
  c5: '用户体验',
  other: '其他',
};

/** Suggestion kinds as the report screen names them (report.suggestion.kind of each locale). */
const enSuggestionKinds: Record<SuggestionKind, string> = {
  redirect: 'Redirect',
  'closest-page': 'Closest page',
  'closest-anchor': 'Closest anchor',
  https: 'Use https',
  explain: 'Why',
};
const zhSuggestionKinds: Record<SuggestionKind, string> = {
  redirect: '重定向',
  'closest-page': '最接近的页面',
  'closest-anchor': '最接近的锚点',
  https: '改用 https',
  explain: '原因',
};

const en = {
  product: 'LinkAudit',
  title: 'Link report',
  site: 'Site',
  scanned: 'Scanned',
  duration: 'Duration',
  page: (n: number) => `Page ${n}`,
  summary: 'Summary',
  pages: 'Pages',
  totalLinks: 'Total links',
  uniqueLinks: 'Unique links',
  badLinks: 'Broken links',
  uniqueBadLinks: 'Unique broken links',
  brokenAnchors: 'Broken anchors',
  duplicateAnchors: 'Duplicate anchors',
  fattestPages: 'Pages over 2 MB',
  certificateProblems: 'Certificate problems',
  charts: 'Charts',
  failureReasons: 'Failure reasons',
  pageSizes: 'Page size distribution',
  contentTypes: 'Content type size (MB)',
  ruleCategories: 'Rule categories',
  passed: 'Passed',
  failed: 'Failed',
  noData: 'No data to display.',
  topBroken: 'Top broken links per failure type',
  noBroken: 'No broken link found.',
  target: 'Link',
  source: 'Found on',
  status: 'Status',
  line: 'Line',
  references: (n: number) => `${n} reference${n === 1 ? '' : 's'}`,
  noDuplicates: 'No duplicate anchor found.',
  fattestTitle: 'Fattest pages',
  noFattest: 'No page larger than 2MB found.',
  size: 'Size',
  ruleSummary: 'Rule summary',
  noRules: 'No rules been enabled for this scan.',
  rule: 'Rule',
  violations: 'Findings',
  pagesAffected: 'Pages',
  ruleSamples: 'Rule samples',
  allBroken: 'All broken links',
  position: (line: number, column: number) => `Line ${line}, Position ${column}`,
  seconds: (s: number) => `${s} s`,
  /** A stored failure label (SPEC §8's words, or Broken Anchor) in this language. */
  reason: (label: string) => enCauseLabels[label] ?? label,
  /** A rule category's name: SPEC's English label (core's ruleCategoryLabel, given). */
  category: (_id: number, english: string) => english,
  // A link's suggested fix (issue 27) in the words of the report screen (report.suggestion.*).
  suggestedFix: 'Suggested fix',
  suggestionKind: (kind: SuggestionKind) => enSuggestionKinds[kind],
  suggestionConfidence: (percent: number) => `${percent}% sure`,
  suggestionChain: (hops: number) => `Chain of ${hops} redirects`,
  suggestionWhy: (suggestion: Suggestion) => suggestionWhy(suggestion, 'en'),
  /** A label followed by what it names ("Suggested fix · …: address"). */
  colon: (label: string) => `${label}:`,
} as const;

type PdfTexts = { [K in keyof typeof en]: (typeof en)[K] extends string ? string : (typeof en)[K] };

const zh: PdfTexts = {
  product: 'LinkAudit',
  title: '链接报告',
  site: '网站',
  scanned: '扫描时间',
  duration: '耗时',
  page: (n: number) => `第 ${n} 页`,
  summary: '摘要',
  pages: '页面',
  totalLinks: '链接总数',
  uniqueLinks: '唯一链接',
  badLinks: '失效链接',
  uniqueBadLinks: '唯一失效链接',
  brokenAnchors: '断开的锚点',
  duplicateAnchors: '重复的锚点',
  fattestPages: '超过 2 MB 的页面',
  certificateProblems: '证书问题',
  charts: '图表',
  failureReasons: '失效原因',
  pageSizes: '页面大小分布',
  contentTypes: '内容类型大小 (MB)',
  ruleCategories: '规则类别',
  passed: '通过',
  failed: '失败',
  noData: '没有可显示的数据。',
  topBroken: '各失效原因的主要失效链接',
  noBroken: '未发现失效链接。',
  target: '链接',
  source: '所在页面',
  status: '状态',
  line: '行',
  references: (n: number) => `${n} 处引用`,
  noDuplicates: '未发现重复的锚点。',
  fattestTitle: '最大的页面',
  noFattest: '未发现大于 2MB 的页面。',
  size: '大小',
  ruleSummary: '规则摘要',
  noRules: '此扫描未启用任何规则。',
  rule: '规则',
  violations: '问题',
  pagesAffected: '页面',
  ruleSamples: '规则示例',
  allBroken: '全部失效链接',
  position: (line: number, column: number) => `第 ${line} 行，第 ${column} 列`,
  seconds: (s: number) => `${s} 秒`,
  reason: (label: string) => zhFailureReasons[label] ?? label,
  category: (id: number, english: string) =>
    zhRuleCategories[id >= 1 && id <= 5 ? `c${id}` : 'other'] ?? english,
  suggestedFix: '建议修复',
  suggestionKind: (kind: SuggestionKind) => zhSuggestionKinds[kind],
  suggestionConfidence: (percent: number) => `把握 ${percent}%`,
  suggestionChain: (hops: number) => `${hops} 次连续重定向`,
  suggestionWhy: (suggestion: Suggestion) => suggestionWhy(suggestion, 'zh-CN'),
  colon: (label: string) => `${label}：`,
};

export type { PdfTexts };

export function pdfTexts(language: AccountLanguage): PdfTexts {
  return language === 'zh-CN' ? zh : en;
}

/** Dates as each language writes them (UTC, as the server stores them). */
export function pdfDate(language: AccountLanguage, date: Date): string {
  return new Intl.DateTimeFormat(language === 'zh-CN' ? 'zh-CN' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(date);
}
