/**
 * The URLs of a `srcset` attribute, following the HTML parsing algorithm closely enough that
 * commas inside URLs (image CDNs use `w_100,h_50`) survive: a candidate's URL runs to the next
 * white space, and only a trailing comma ends it.
 */
export function parseSrcset(value: string): Array<{ url: string; offset: number }> {
  const candidates: Array<{ url: string; offset: number }> = [];
  let position = 0;
  const length = value.length;
  while (position < length) {
    while (position < length && /[\s,]/.test(value[position] ?? '')) position++;
    if (position >= length) break;
    const start = position;
    while (position < length && !/\s/.test(value[position] ?? '')) position++;
    let url = value.slice(start, position);
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      position = skipDescriptors(value, position);
    }
    if (url) candidates.push({ url, offset: start });
  }
  return candidates;
}

function skipDescriptors(value: string, from: number): number {
  let position = from;
  let depth = 0;
  while (position < value.length) {
    const character = value[position];
    if (character === '(') depth++;
    else if (character === ')') depth = Math.max(0, depth - 1);
    else if (character === ',' && depth === 0) return position + 1;
    position++;
  }
  return position;
}
