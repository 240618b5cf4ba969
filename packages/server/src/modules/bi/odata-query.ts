import { propertyOf, type FeedEntitySet, type FeedProperty } from './odata-model.js';

/**
 * The feed's query language (OData v4 Part 2 §5.1): $filter parsed into a small typed tree, and
 * $orderby and $select read against the entity set's properties. Nothing here writes SQL: the
 * repository turns the tree into a parameterised statement, so no text of a request ever becomes
 * SQL. Unknown properties, functions and type mismatches are refused with a readable message.
 */

/** A request the feed cannot answer as asked: 400 (or 501) with an OData error body. */
export class ODataQueryError extends Error {
  constructor(
    message: string,
    readonly statusCode: 400 | 404 | 501 = 400,
  ) {
    super(message);
  }
}

export type Literal = string | number | boolean | null;
export type CompareOperator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
export type StringFunction = 'contains' | 'startswith' | 'endswith';

export type FilterExpression =
  | { kind: 'and' | 'or'; left: FilterExpression; right: FilterExpression }
  | { kind: 'not'; operand: FilterExpression }
  | { kind: 'compare'; operator: CompareOperator; property: FeedProperty; value: Literal }
  | { kind: 'in'; property: FeedProperty; values: Literal[] }
  | { kind: 'function'; name: StringFunction; property: FeedProperty; value: string };

export interface OrderBy {
  property: FeedProperty;
  direction: 'asc' | 'desc';
}

type Token =
  | { type: 'open' | 'close' | 'comma'; at: number }
  | { type: 'string'; value: string; at: number }
  | { type: 'number'; value: number; at: number }
  | { type: 'word'; value: string; at: number };

const compareOperators = new Set<string>(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const stringFunctions = new Set<string>(['contains', 'startswith', 'endswith']);
/** Deeper nesting than any real query; it keeps a hostile one from exhausting the stack. */
const maxDepth = 64;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at] ?? '';
    if (/\s/.test(char)) {
      at += 1;
    } else if (char === '(' || char === ')' || char === ',') {
      tokens.push({ type: char === '(' ? 'open' : char === ')' ? 'close' : 'comma', at });
      at += 1;
    } else if (char === "'") {
      // A quote inside a string literal is written twice (ABNF SQUOTE-in-string).
      let value = '';
      let end = at + 1;
      for (;;) {
        if (end >= text.length) throw new ODataQueryError(`Unterminated string at ${at}.`);
        if (text[end] === "'") {
          if (text[end + 1] === "'") {
            value += "'";
            end += 2;
            continue;
          }
          break;
        }
        value += text[end];
        end += 1;
      }
      tokens.push({ type: 'string', value, at });
      at = end + 1;
    } else {
      const number = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
      if (number) {
        tokens.push({ type: 'number', value: Number(number[0]), at });
        at += number[0].length;
        continue;
      }
      const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(at));
      if (!word) throw new ODataQueryError(`Unexpected '${char}' at ${at}.`);
      tokens.push({ type: 'word', value: word[0], at });
      at += word[0].length;
    }
  }
  return tokens;
}

function describe(token: Token | undefined): string {
  if (!token) return 'the end';
  if (token.type === 'string') return `'${token.value}' at ${token.at}`;
  if (token.type === 'number' || token.type === 'word') return `'${token.value}' at ${token.at}`;
  return `'${token.type === 'open' ? '(' : token.type === 'close' ? ')' : ','}' at ${token.at}`;
}

/** A recursive-descent parser of the $filter grammar the feed supports. */
class FilterParser {
  #index = 0;
  #depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly set: FeedEntitySet,
  ) {}

  parse(): FilterExpression {
    const expression = this.#or();
    const rest = this.tokens[this.#index];
    if (rest) throw new ODataQueryError(`Unexpected ${describe(rest)} in $filter.`);
    return expression;
  }

  #peek(): Token | undefined {
    return this.tokens[this.#index];
  }

  #next(): Token | undefined {
    const token = this.tokens[this.#index];
    this.#index += 1;
    return token;
  }

  #isWord(token: Token | undefined, word: string): boolean {
    return token?.type === 'word' && token.value === word;
  }

  #expect(type: 'open' | 'close' | 'comma'): void {
    const token = this.#next();
    if (token?.type !== type) {
      const wanted = type === 'open' ? '(' : type === 'close' ? ')' : ',';
      throw new ODataQueryError(`Expected '${wanted}' but found ${describe(token)} in $filter.`);
    }
  }

  #or(): FilterExpression {
    let left = this.#and();
    while (this.#isWord(this.#peek(), 'or')) {
      this.#next();
      left = { kind: 'or', left, right: this.#and() };
    }
    return left;
  }

  #and(): FilterExpression {
    let left = this.#unary();
    while (this.#isWord(this.#peek(), 'and')) {
      this.#next();
      left = { kind: 'and', left, right: this.#unary() };
    }
    return left;
  }

  #unary(): FilterExpression {
    this.#depth += 1;
    if (this.#depth > maxDepth) throw new ODataQueryError('The $filter is nested too deeply.');
    try {
      if (this.#isWord(this.#peek(), 'not')) {
        this.#next();
        return { kind: 'not', operand: this.#unary() };
      }
      return this.#primary();
    } finally {
      this.#depth -= 1;
    }
  }

  #primary(): FilterExpression {
    const token = this.#peek();
    if (token?.type === 'open') {
      this.#next();
      const inner = this.#or();
      this.#expect('close');
      return inner;
    }
    if (token?.type === 'word' && this.tokens[this.#index + 1]?.type === 'open') {
      return this.#function(token.value);
    }
    return this.#comparison();
  }

  #function(name: string): FilterExpression {
    if (!stringFunctions.has(name)) {
      throw new ODataQueryError(
        `The function '${name}' is not supported; use contains, startswith or endswith.`,
      );
    }
    this.#next();
    this.#expect('open');
    const property = this.#property(this.#next());
    this.#expect('comma');
    const value = this.#literal(this.#next());
    this.#expect('close');
    if (property.type !== 'Edm.String' || typeof value !== 'string') {
      throw new ODataQueryError(`${name} needs a text property and a text value.`);
    }
    return { kind: 'function', name: name as StringFunction, property, value };
  }

  #comparison(): FilterExpression {
    const first = this.#next();
    const operator = this.#next();
    if (
      operator?.type !== 'word' ||
      !(compareOperators.has(operator.value) || operator.value === 'in')
    ) {
      throw new ODataQueryError(
        `Expected a comparison (eq, ne, gt, ge, lt, le, in) but found ${describe(operator)} in $filter.`,
      );
    }
    if (operator.value === 'in') return this.#in(this.#property(first));
    const second = this.#next();
    // A literal may stand on either side: `5 lt line` is `line gt 5`.
    const propertyFirst = first?.type === 'word' && !isLiteralWord(first.value);
    const property = this.#property(propertyFirst ? first : second);
    const value = this.#literal(propertyFirst ? second : first);
    const op = operator.value as CompareOperator;
    checkType(property, value, op);
    return { kind: 'compare', operator: propertyFirst ? op : mirror(op), property, value };
  }

  #in(property: FeedProperty): FilterExpression {
    this.#expect('open');
    const values: Literal[] = [this.#literal(this.#next())];
    while (this.#peek()?.type === 'comma') {
      this.#next();
      values.push(this.#literal(this.#next()));
    }
    this.#expect('close');
    for (const value of values) checkType(property, value, 'eq');
    return { kind: 'in', property, values };
  }

  #property(token: Token | undefined): FeedProperty {
    if (token?.type !== 'word' || isLiteralWord(token.value)) {
      throw new ODataQueryError(
        `Expected a property name but found ${describe(token)} in $filter.`,
      );
    }
    return requireProperty(this.set, token.value);
  }

  #literal(token: Token | undefined): Literal {
    if (token?.type === 'string' || token?.type === 'number') return token.value;
    if (token?.type === 'word' && isLiteralWord(token.value)) {
      return token.value === 'null' ? null : token.value === 'true';
    }
    throw new ODataQueryError(`Expected a value but found ${describe(token)} in $filter.`);
  }
}

function isLiteralWord(word: string): boolean {
  return word === 'true' || word === 'false' || word === 'null';
}

function mirror(operator: CompareOperator): CompareOperator {
  const mirrored: Record<CompareOperator, CompareOperator> = {
    eq: 'eq',
    ne: 'ne',
    gt: 'lt',
    ge: 'le',
    lt: 'gt',
    le: 'ge',
  };
  return mirrored[operator];
}

function checkType(property: FeedProperty, value: Literal, operator: CompareOperator): void {
  if (value === null) {
    if (operator !== 'eq' && operator !== 'ne') {
      throw new ODataQueryError(`null can only be compared with eq or ne (${property.name}).`);
    }
    return;
  }
  const expected =
    property.type === 'Edm.String'
      ? 'string'
      : property.type === 'Edm.Boolean'
        ? 'boolean'
        : 'number';
  if (typeof value !== expected) {
    throw new ODataQueryError(
      `${property.name} is ${property.type}; ${JSON.stringify(value)} is not a value of that type.`,
    );
  }
}

export function requireProperty(set: FeedEntitySet, name: string): FeedProperty {
  const property = propertyOf(set, name);
  if (!property) {
    throw new ODataQueryError(
      `Could not find a property named '${name}' on type '${set.typeName}'.`,
    );
  }
  return property;
}

/** Parses a $filter against the entity set's properties. */
export function parseFilter(text: string, set: FeedEntitySet): FilterExpression {
  const tokens = tokenize(text);
  if (tokens.length === 0) throw new ODataQueryError('The $filter is empty.');
  return new FilterParser(tokens, set).parse();
}

/** Parses `$orderby=a desc,b` (each property at most once). */
export function parseOrderBy(text: string, set: FeedEntitySet): OrderBy[] {
  const items = text.split(',').map((item) => item.trim());
  const orders = items.map((item) => {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:\s+(asc|desc))?$/.exec(item);
    if (!match) throw new ODataQueryError(`'${item}' is not a valid $orderby item.`);
    return {
      property: requireProperty(set, match[1] ?? ''),
      direction: (match[2] ?? 'asc') as 'asc' | 'desc',
    };
  });
  const names = orders.map((order) => order.property.name);
  if (new Set(names).size !== names.length) {
    throw new ODataQueryError('A property appears twice in $orderby.');
  }
  return orders;
}

/** Parses `$select=a,b` or `*`: the properties to answer, in the model's order. */
export function parseSelect(text: string, set: FeedEntitySet): FeedProperty[] {
  const names = text.split(',').map((item) => item.trim());
  if (names.includes('*')) return set.properties;
  const chosen = new Set(names.map((name) => requireProperty(set, name).name));
  return set.properties.filter((property) => chosen.has(property.name));
}
