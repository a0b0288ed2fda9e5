/**
 * The label selector lexer, with kube's token set (labels.Lexer in apimachinery v0.33).
 * It works on UTF-16 code units where kube works on bytes; every delimiter is ASCII, so
 * tokens split at the same places. A NUL character acts as end of input, as in kube.
 */

/** Token names as kube's Go source spells them. */
export type LabelToken =
  | 'ErrorToken'
  | 'EndOfStringToken'
  | 'ClosedParToken'
  | 'CommaToken'
  | 'DoesNotExistToken'
  | 'DoubleEqualsToken'
  | 'EqualsToken'
  | 'GreaterThanToken'
  | 'IdentifierToken'
  | 'InToken'
  | 'LessThanToken'
  | 'NotEqualsToken'
  | 'NotInToken'
  | 'OpenParToken';

/** One lexed token and its literal text (empty for end of string). */
export interface ScannedItem {
  readonly token: LabelToken;
  readonly literal: string;
}

// A Map, not an object literal: identifiers such as "constructor" must not hit Object.prototype.
const literalTokens: ReadonlyMap<string, LabelToken> = new Map<string, LabelToken>([
  [')', 'ClosedParToken'],
  [',', 'CommaToken'],
  ['!', 'DoesNotExistToken'],
  ['==', 'DoubleEqualsToken'],
  ['=', 'EqualsToken'],
  ['>', 'GreaterThanToken'],
  ['in', 'InToken'],
  ['<', 'LessThanToken'],
  ['!=', 'NotEqualsToken'],
  ['notin', 'NotInToken'],
  ['(', 'OpenParToken'],
]);

const endOfString: ScannedItem = { token: 'EndOfStringToken', literal: '' };

function isWhitespace(ch: number): boolean {
  return ch === 0x20 || ch === 0x09 || ch === 0x0d || ch === 0x0a;
}

function isSpecialSymbol(ch: number): boolean {
  switch (ch) {
    case 0x3d: // =
    case 0x21: // !
    case 0x28: // (
    case 0x29: // )
    case 0x2c: // ,
    case 0x3e: // >
    case 0x3c: // <
      return true;
    default:
      return false;
  }
}

/** Splits a label selector into tokens, one call to next() at a time. */
class LabelLexer {
  private pos = 0;

  constructor(private readonly s: string) {}

  /** The next token; EndOfStringToken once the input (or a NUL) is reached. */
  next(): ScannedItem {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === 0) return endOfString;
    this.pos--;
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIdentifierOrKeyword();
  }

  // Like kube's read(): 0 at end of input, and a NUL character is consumed and also reads as 0.
  private read(): number {
    return this.pos < this.s.length ? this.s.charCodeAt(this.pos++) : 0;
  }

  private scanIdentifierOrKeyword(): ScannedItem {
    const start = this.pos;
    let end: number;
    for (;;) {
      if (this.pos >= this.s.length) {
        end = this.pos;
        break;
      }
      const ch = this.s.charCodeAt(this.pos);
      if (ch === 0) {
        end = this.pos++;
        break;
      }
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        end = this.pos;
        break;
      }
      this.pos++;
    }
    const literal = this.s.slice(start, end);
    return { token: literalTokens.get(literal) ?? 'IdentifierToken', literal };
  }

  // Longest run of special symbols that still spells a token: "!=" stays one, "=(" splits.
  private scanSpecialSymbol(): ScannedItem {
    const start = this.pos;
    let last: LabelToken | undefined;
    let lastEnd = start;
    while (this.pos < this.s.length) {
      const ch = this.s.charCodeAt(this.pos);
      if (ch === 0) {
        this.pos++;
        break;
      }
      if (!isSpecialSymbol(ch)) break;
      this.pos++;
      const token = literalTokens.get(this.s.slice(start, this.pos));
      if (token !== undefined) {
        last = token;
        lastEnd = this.pos;
      } else if (last !== undefined) {
        this.pos--;
        break;
      }
    }
    if (last === undefined) {
      return { token: 'ErrorToken', literal: `error expected: keyword found '${this.s.slice(start, this.pos)}'` };
    }
    return { token: last, literal: this.s.slice(start, lastEnd) };
  }
}

/** Lexes a whole selector: every token up to and including EndOfStringToken. Pure. */
export function lexLabelSelector(input: string): ScannedItem[] {
  const lexer = new LabelLexer(input);
  const items: ScannedItem[] = [];
  for (;;) {
    const item = lexer.next();
    items.push(item);
    if (item.token === 'EndOfStringToken') return items;
  }
}
