/** Characters XML 1.0 cannot hold at all, even escaped: replaced by U+FFFD. */
const invalidXmlCharacters =
  // eslint-disable-next-line no-control-regex -- naming the allowed control characters is the point
  /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // In attributes a parser turns raw tabs and line breaks into spaces; character references survive.
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** Text content: markup characters escaped, line breaks kept as they are. */
export function xmlText(value: string): string {
  return value.replace(invalidXmlCharacters, '\ufffd').replace(/[&<>\r]/g, (c) => entities[c] ?? c);
}

/** An attribute value (for double quotes), with tabs and line breaks preserved. */
export function xmlAttribute(value: string | number): string {
  return String(value)
    .replace(invalidXmlCharacters, '\ufffd')
    .replace(/[&<>"'\t\n\r]/g, (c) => entities[c] ?? c);
}
