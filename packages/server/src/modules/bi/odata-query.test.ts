import { describe, expect, it } from 'vitest';
import { feedEntitySets } from './odata-model.js';
import { parseFilter, parseOrderBy, parseSelect } from './odata-query.js';

const links = feedEntitySets.Links;

/** The tree as text, to compare shapes briefly. */
function show(text: string): string {
  const walk = (node: ReturnType<typeof parseFilter>): string => {
    switch (node.kind) {
      case 'and':
      case 'or':
        return `(${walk(node.left)} ${node.kind} ${walk(node.right)})`;
      case 'not':
        return `not ${walk(node.operand)}`;
      case 'compare':
        return `${node.property.name} ${node.operator} ${JSON.stringify(node.value)}`;
      case 'in':
        return `${node.property.name} in ${JSON.stringify(node.values)}`;
      case 'function':
        return `${node.name}(${node.property.name},${JSON.stringify(node.value)})`;
    }
  };
  return walk(parseFilter(text, links));
}

describe('the $filter parser', () => {
  it('binds and tighter than or, honours parentheses and not', () => {
    expect(show("state eq 'ok' or line gt 3 and line lt 9")).toBe(
      '(state eq "ok" or (line gt 3 and line lt 9))',
    );
    expect(show("(state eq 'ok' or line gt 3) and not (line lt 9)")).toBe(
      '((state eq "ok" or line gt 3) and not line lt 9)',
    );
  });

  it('reads literals: doubled quotes, negatives, decimals, null, booleans, a literal first', () => {
    expect(show("targetUri eq 'it''s'")).toBe('targetUri eq "it\'s"');
    expect(show('line ge -2.5e1')).toBe('line ge -25');
    expect(show('statusCode eq null')).toBe('statusCode eq null');
    expect(show('internal eq false')).toBe('internal eq false');
    expect(show('10 lt line')).toBe('line gt 10');
    expect(show("contains(sourceUri,'/a')")).toBe('contains(sourceUri,"/a")');
    expect(show("failureReason in ('Time Out', null)")).toBe('failureReason in ["Time Out",null]');
  });

  it('refuses unknown properties, functions, type mismatches and broken syntax', () => {
    const refusals: Array<[string, string]> = [
      ["secret eq 'x'", "Could not find a property named 'secret' on type 'Link'"],
      ["tolower(targetUri) eq 'x'", "function 'tolower'"],
      ["line eq '3'", 'line is Edm.Int32'],
      ['internal eq 1', 'internal is Edm.Boolean'],
      ['line gt null', 'null can only be compared'],
      ["contains(line,'1')", 'contains needs a text property'],
      ["state eq 'ok", 'Unterminated string'],
      ["(state eq 'ok'", "Expected ')'"],
      ["state eq 'ok' line", "Unexpected 'line'"],
      ['state', 'Expected a comparison'],
      ["state eq 'a'; drop table users", "Unexpected ';'"],
      ['', 'empty'],
    ];
    for (const [text, message] of refusals) {
      expect(() => parseFilter(text, links), text).toThrow(message);
    }
    expect(() => parseFilter(`${'('.repeat(100)}line eq 1${')'.repeat(100)}`, links)).toThrow(
      'nested too deeply',
    );
  });
});

describe('$orderby and $select', () => {
  it('reads directions and keeps the model order for a selection', () => {
    expect(
      parseOrderBy('line desc, targetUri', links).map((o) => `${o.property.name} ${o.direction}`),
    ).toEqual(['line desc', 'targetUri asc']);
    expect(parseSelect('line,id', links).map((p) => p.name)).toEqual(['id', 'line']);
    expect(parseSelect('*', links)).toHaveLength(links.properties.length);
    expect(() => parseOrderBy('line,line desc', links)).toThrow('twice');
    expect(() => parseOrderBy('line sideways', links)).toThrow('not a valid $orderby item');
    expect(() => parseSelect('id,hash', links)).toThrow("property named 'hash'");
  });
});
