/**
 * The label selector grammar (labels.Parse in apimachinery v0.33), a recursive descent over the
 * tokens of label-lexer.ts with one token of lookahead and kube's error texts:
 *
 *   selector    ::= requirement | requirement "," selector
 *   requirement ::= ["!"] KEY [ ("in" | "notin") "(" values ")" | ("=" | "==" | "!=" | ">" | "<") VALUE ]
 */
import { type FieldError, type FieldPath, fieldErrorMessage } from '../validation/field-error.js';
import { compareByteOrder, sortedByteOrder } from './byte-order.js';
import { type LabelToken, type ScannedItem, lexLabelSelector } from './label-lexer.js';
import { type LabelOperator, type LabelRequirement, binaryLabelOperators, newLabelRequirement, validateLabelKey } from './label-requirement.js';
import { SelectorParseError } from './selector-parse-error.js';

// Inside a value list "in" and "notin" are plain identifiers; only in operator position are they keywords.
type ParseContext = 'keyAndOperator' | 'values';

const operatorByToken: ReadonlyMap<LabelToken, LabelOperator> = new Map<LabelToken, LabelOperator>([
  ['InToken', 'in'],
  ['EqualsToken', '='],
  ['DoubleEqualsToken', '=='],
  ['GreaterThanToken', 'gt'],
  ['LessThanToken', 'lt'],
  ['NotInToken', 'notin'],
  ['NotEqualsToken', '!='],
]);

const operatorExpectation = binaryLabelOperators.join(', ');

/** A failure inside one requirement; parse() prefixes it with "unable to parse requirement: ". */
class RequirementFailure extends Error {
  constructor(
    message: string,
    readonly fieldErrors: readonly FieldError[] = [],
  ) {
    super(message);
  }
}

class LabelParser {
  private position = 0;
  private readonly items: ScannedItem[];

  constructor(
    input: string,
    private readonly path: FieldPath,
  ) {
    this.items = lexLabelSelector(input);
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const [token, literal] = this.lookahead('values');
      if (token === 'EndOfStringToken') return requirements;
      if (token !== 'IdentifierToken' && token !== 'DoesNotExistToken') {
        throw new SelectorParseError(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
      requirements.push(this.parseRequirementOrThrow());
      const [next, nextLiteral] = this.consume('values');
      if (next === 'EndOfStringToken') return requirements;
      if (next !== 'CommaToken') throw new SelectorParseError(`found '${nextLiteral}', expected: ',' or 'end of string'`);
      const [after, afterLiteral] = this.lookahead('values');
      if (after !== 'IdentifierToken' && after !== 'DoesNotExistToken') {
        throw new SelectorParseError(`found '${afterLiteral}', expected: identifier after ','`);
      }
    }
  }

  private parseRequirementOrThrow(): LabelRequirement {
    try {
      return this.parseRequirement();
    } catch (err) {
      if (err instanceof RequirementFailure || err instanceof SelectorParseError) {
        throw new SelectorParseError(`unable to parse requirement: ${err.message}`, err.fieldErrors);
      }
      throw err;
    }
  }

  private lookahead(context: ParseContext): [LabelToken, string] {
    const item = this.items[this.position] as ScannedItem;
    return [this.contextual(item.token, context), item.literal];
  }

  private consume(context: ParseContext): [LabelToken, string] {
    const item = this.items[this.position++] as ScannedItem;
    return [this.contextual(item.token, context), item.literal];
  }

  private contextual(token: LabelToken, context: ParseContext): LabelToken {
    return context === 'values' && (token === 'InToken' || token === 'NotInToken') ? 'IdentifierToken' : token;
  }

  private parseRequirement(): LabelRequirement {
    const [key, inferred] = this.parseKeyAndInferOperator();
    if (inferred === 'exists' || inferred === '!') return newLabelRequirement(key, inferred, [], this.path);
    const operator = this.parseOperator();
    const values = operator === 'in' || operator === 'notin' ? this.parseValues() : this.parseExactValue();
    return newLabelRequirement(key, operator, sortedByteOrder([...values]), this.path);
  }

  // A bare key (followed by ',' or the end) infers "exists"; "!key" is "does not exist".
  private parseKeyAndInferOperator(): [string, LabelOperator | undefined] {
    let operator: LabelOperator | undefined;
    let [token, literal] = this.consume('values');
    if (token === 'DoesNotExistToken') {
      operator = '!';
      [token, literal] = this.consume('values');
    }
    if (token !== 'IdentifierToken') throw new RequirementFailure(`found '${literal}', expected: identifier`);
    const keyErr = validateLabelKey(literal, this.path);
    if (keyErr) throw new RequirementFailure(fieldErrorMessage(keyErr), [keyErr]);
    const [next] = this.lookahead('values');
    if ((next === 'EndOfStringToken' || next === 'CommaToken') && operator !== '!') operator = 'exists';
    return [literal, operator];
  }

  private parseOperator(): LabelOperator {
    const [token, literal] = this.consume('keyAndOperator');
    const operator = operatorByToken.get(token);
    if (operator === undefined) throw new RequirementFailure(`found '${literal}', expected: ${operatorExpectation}`);
    return operator;
  }

  private parseValues(): Set<string> {
    const [token, literal] = this.consume('values');
    if (token !== 'OpenParToken') throw new RequirementFailure(`found '${literal}' expected: '('`);
    const [next, nextLiteral] = this.lookahead('values');
    if (next === 'IdentifierToken' || next === 'CommaToken') {
      const values = this.parseIdentifiersList();
      const [closing] = this.consume('values');
      if (closing !== 'ClosedParToken') throw new RequirementFailure(`found '${nextLiteral}', expected: ')'`);
      return values;
    }
    if (next === 'ClosedParToken') {
      this.consume('values');
      return new Set(['']);
    }
    throw new RequirementFailure(`found '${nextLiteral}', expected: ',', ')' or identifier`);
  }

  // Empty items count as the empty value: "(a,)", "(,a)" and "(a,,b)" all contain "".
  private parseIdentifiersList(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const [token, literal] = this.consume('values');
      if (token === 'IdentifierToken') {
        values.add(literal);
        const [next, nextLiteral] = this.lookahead('values');
        if (next === 'CommaToken') continue;
        if (next === 'ClosedParToken') return values;
        throw new RequirementFailure(`found '${nextLiteral}', expected: ',' or ')'`);
      }
      if (token !== 'CommaToken') throw new RequirementFailure(`found '${literal}', expected: ',', or identifier`);
      if (values.size === 0) values.add('');
      const [next] = this.lookahead('values');
      if (next === 'ClosedParToken') {
        values.add('');
        return values;
      }
      if (next === 'CommaToken') {
        this.consume('values');
        values.add('');
      }
    }
  }

  private parseExactValue(): Set<string> {
    const [next] = this.lookahead('values');
    if (next === 'EndOfStringToken' || next === 'CommaToken') return new Set(['']);
    const [token, literal] = this.consume('values');
    if (token === 'IdentifierToken') return new Set([literal]);
    throw new RequirementFailure(`found '${literal}', expected: identifier`);
  }
}

/**
 * labels.ParseToRequirements: the requirements of a selector string, sorted by key (stably),
 * each with sorted, deduplicated values. Throws SelectorParseError with kube's message.
 */
export function parseLabelRequirements(input: string, path?: FieldPath): LabelRequirement[] {
  const requirements = new LabelParser(input, path).parse();
  return requirements.sort((a, b) => compareByteOrder(a.key, b.key));
}
