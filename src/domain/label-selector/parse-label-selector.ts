import { goQuote } from '../validation/field-errors';
import { goParseInt64Error } from '../validation/go-parse-int';
import { isQualifiedName, isValidLabelValue } from '../validation/label-names';

/**
 * Kubernetes label selector strings (`?labelSelector=`), as apimachinery `labels.Parse`
 * (k8s.io/apimachinery/pkg/labels/selector.go) reads them: requirements separated by `,` (AND), each
 * `key`, `!key`, `key=value`, `key==value`, `key!=value`, `key in (a,b)`, `key notin (a)`, `key>1`,
 * `key<1`; whitespace between tokens is ignored. Keys must be qualified names and values label values.
 */

export type LabelSelectorOperator = 'Exists' | 'DoesNotExist' | '=' | '==' | '!=' | 'in' | 'notin' | '>' | '<';

export interface LabelRequirement {
  key: string;
  operator: LabelSelectorOperator;
  /** Sorted and de-duplicated, as upstream's string set. */
  values: string[];
}

export type Labels = Readonly<Record<string, string>>;

/** A compiled selector: call it with a node's labels; `requirements` says what it checks. */
export type LabelMatcher = ((labels: Labels) => boolean) & { readonly requirements: readonly LabelRequirement[] };

/** A selector string that does not parse; the message says where and why. */
export class LabelSelectorError extends Error {
  override readonly name = 'LabelSelectorError';
  constructor(
    message: string,
    readonly selector: string,
  ) {
    super(message);
  }
}

type Token =
  | { kind: 'identifier'; text: string }
  | { kind: 'symbol'; text: string } // = == != ! ( ) , > <
  | { kind: 'end'; text: '' };

const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);
const SYMBOLS = new Set(['=', '==', '!=', '!', '(', ')', ',', '>', '<']);
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);

/**
 * The lexer of selector.go: whitespace separates; identifiers run until whitespace or a special symbol
 * (`= ! ( ) , > <`); special symbols are read greedily as the longest known token (`!=`, `==`).
 */
function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    if (WHITESPACE.has(input[i])) {
      i += 1;
    } else if (SPECIAL.has(input[i])) {
      // Every single special character is a token, so the longest match is 1 or 2 characters.
      const pair = input.slice(i, i + 2);
      const symbol = SYMBOLS.has(pair) ? pair : input[i];
      tokens.push({ kind: 'symbol', text: symbol });
      i += symbol.length;
    } else {
      let j = i;
      while (j < input.length && !WHITESPACE.has(input[j]) && !SPECIAL.has(input[j])) j += 1;
      tokens.push({ kind: 'identifier', text: input.slice(i, j) });
      i = j;
    }
  }
  tokens.push({ kind: 'end', text: '' });
  return tokens;
}

/** The recursive-descent parser of selector.go, with its error texts. */
class SelectorParser {
  private position = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const next = this.peek();
      if (next.kind === 'end') return requirements;
      if (next.kind !== 'identifier' && next.text !== '!') {
        throw new Error(`found '${next.text}', expected: !, identifier, or 'end of string'`);
      }
      try {
        requirements.push(this.parseRequirement());
      } catch (error) {
        throw new Error(`unable to parse requirement: ${(error as Error).message}`, { cause: error });
      }
      const after = this.consume();
      if (after.kind === 'end') return requirements;
      if (after.text !== ',') throw new Error(`found '${after.text}', expected: ',' or 'end of string'`);
      const following = this.peek();
      if (following.kind !== 'identifier' && following.text !== '!') {
        throw new Error(`found '${following.text}', expected: identifier after ','`);
      }
    }
  }

  private parseRequirement(): LabelRequirement {
    let token = this.consume();
    const negated = token.text === '!' && token.kind === 'symbol';
    if (negated) token = this.consume();
    if (token.kind !== 'identifier') throw new Error(`found '${token.text}', expected: identifier`);
    const key = token.text;
    validateKey(key);
    const next = this.peek();
    const bare = next.kind === 'end' || next.text === ',';
    if (negated) return { key, operator: 'DoesNotExist', values: [] };
    if (bare) return { key, operator: 'Exists', values: [] };

    const operator = this.parseOperator();
    const values = operator === 'in' || operator === 'notin' ? this.parseValues() : this.parseExactValue();
    validateValues(key, operator, values);
    return { key, operator, values };
  }

  private parseOperator(): Exclude<LabelSelectorOperator, 'Exists' | 'DoesNotExist'> {
    const token = this.consume();
    if (token.kind === 'identifier' && (token.text === 'in' || token.text === 'notin')) return token.text;
    if (token.kind === 'symbol' && ['=', '==', '!=', '>', '<'].includes(token.text)) {
      return token.text as '=' | '==' | '!=' | '>' | '<';
    }
    throw new Error(`found '${token.text}', expected: =, !=, ==, in, notin, >, <`);
  }

  /** `(a, b)`; empty slots are the empty value: `()`, `(,a)`, `(a,)` all contain "". */
  private parseValues(): string[] {
    const open = this.consume();
    if (open.text !== '(' || open.kind !== 'symbol') throw new Error(`found '${open.text}' expected: '('`);
    const first = this.peek();
    if (first.kind === 'symbol' && first.text === ')') {
      this.consume();
      return [''];
    }
    if (first.kind !== 'identifier' && first.text !== ',') {
      throw new Error(`found '${first.text}', expected: ',', ')' or identifier`);
    }
    const values = new Set<string>();
    for (;;) {
      const token = this.consume();
      if (token.kind === 'identifier') {
        values.add(token.text);
        const next = this.peek();
        if (next.text === ')' && next.kind === 'symbol') break;
        if (next.text !== ',' || next.kind !== 'symbol') throw new Error(`found '${next.text}', expected: ',' or ')'`);
      } else if (token.text === ',' && token.kind === 'symbol') {
        if (values.size === 0) values.add('');
        const next = this.peek();
        if (next.text === ')' && next.kind === 'symbol') {
          values.add('');
          break;
        }
        if (next.text === ',' && next.kind === 'symbol') {
          this.consume();
          values.add('');
        }
      } else {
        throw new Error(`found '${token.text}', expected: ',', or identifier`);
      }
    }
    this.consume(); // the ')'
    return [...values].sort();
  }

  /** One value after `=`, `==`, `!=`, `>`, `<`; nothing before `,` or the end means "". */
  private parseExactValue(): string[] {
    const next = this.peek();
    if (next.kind === 'end' || (next.kind === 'symbol' && next.text === ',')) return [''];
    const token = this.consume();
    if (token.kind === 'identifier') return [token.text];
    throw new Error(`found '${token.text}', expected: identifier`);
  }

  private peek(): Token {
    return this.tokens[this.position];
  }

  private consume(): Token {
    const token = this.tokens[this.position];
    if (token.kind !== 'end') this.position += 1;
    return token;
  }
}

/**
 * `validateLabelKey(literal, p.path)` of apimachinery's selector parser (pkg/labels/selector.go @ eed236ce): a
 * field.Invalid at the parser's path, which is nil when a selector string is parsed, hence upstream's `<nil>`.
 */
function validateKey(key: string): void {
  const errors = isQualifiedName(key);
  if (errors.length > 0) throw new Error(`<nil>: Invalid value: ${goQuote(key)}: ${errors.join('; ')}`);
}

/**
 * `NewRequirement`'s value checks (pkg/labels/selector.go @ eed236ce), in its order: the Gt/Lt integer check, then
 * each value of the sorted set as a label value at `values[i][key]`; one error alone, several as an aggregate.
 */
function validateValues(key: string, operator: string, values: readonly string[]): void {
  const sorted = [...new Set(values)].sort();
  const errors: string[] = [];
  if ((operator === '>' || operator === '<') && goParseInt64Error(sorted[0]) !== undefined) {
    errors.push(
      `values[0]: Invalid value: ${goQuote(sorted[0])}: for 'Gt', 'Lt' operators, the value must be an integer`,
    );
  }
  sorted.forEach((value, i) => {
    const problems = isValidLabelValue(value);
    if (problems.length > 0)
      errors.push(`values[${i}][${key}]: Invalid value: ${goQuote(value)}: ${problems.join('; ')}`);
  });
  if (errors.length === 1) throw new Error(errors[0]);
  if (errors.length > 1) throw new Error(`[${errors.join(', ')}]`);
}

/**
 * Whether labels satisfy one requirement (`Requirement.Matches`): `!=` and `notin` match when the key is
 * absent; `>`/`<` need the label to parse as an int64 (Go's ParseInt, so `+5` and `05` do).
 */
export function matchesRequirement(requirement: LabelRequirement, labels: Labels): boolean {
  const has = Object.hasOwn(labels, requirement.key);
  const value = has ? labels[requirement.key] : undefined;
  switch (requirement.operator) {
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case '=':
    case '==':
    case 'in':
      return has && requirement.values.includes(value!);
    case '!=':
    case 'notin':
      return !has || !requirement.values.includes(value!);
    case '>':
    case '<': {
      if (!has || goParseInt64Error(value!) !== undefined) return false;
      const left = BigInt(value!);
      const right = BigInt(requirement.values[0]);
      return requirement.operator === '>' ? left > right : left < right;
    }
  }
}

/**
 * Parses a Kubernetes label selector into a matcher. The empty (or blank) selector matches everything.
 * @throws LabelSelectorError with upstream's wording, e.g.
 *   `unable to parse requirement: found '', expected: identifier` for `"!"`.
 * @example parseLabelSelector('pool=gpu, zone in (a,b), !spot')({ pool: 'gpu', zone: 'a' }) === true
 */
export function parseLabelSelector(selector: string): LabelMatcher {
  let requirements: LabelRequirement[];
  try {
    requirements = new SelectorParser(tokenize(selector)).parse();
  } catch (error) {
    throw new LabelSelectorError((error as Error).message, selector);
  }
  // a loop, not `every` with a closure: a selector over a pool is matched against hundreds of nodes per request
  const matcher = (labels: Labels) => {
    for (let i = 0; i < requirements.length; i++) if (!matchesRequirement(requirements[i], labels)) return false;
    return true;
  };
  return Object.assign(matcher, { requirements });
}
