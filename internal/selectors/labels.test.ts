import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { lexLabelSelector } from './label-lexer.js';
import {
  type LabelOperator,
  type LabelRequirement,
  SelectorParseError,
  everythingLabels,
  labelSelectorFromRequirements,
  labelSelectorFromSet,
  newLabelRequirement,
  nothingLabels,
  parseLabelSelector,
  validateLabelRequirement,
  validatedLabelSelectorFromSet,
} from './labels.js';

/** Finds test/vectors/<name> in the nearest ancestor directory (works from src and from dist). */
function loadVectors(name: string): { cases: VectorCase[] } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'test', 'vectors', name);
    if (existsSync(candidate)) return JSON.parse(readFileSync(candidate, 'utf8')) as { cases: VectorCase[] };
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`test/vectors/${name} not found`);
    dir = parent;
  }
}

interface VectorRequirement {
  key: string;
  operator: string;
  values: string[];
}

interface ExpectedFieldError {
  type: string;
  field: string;
  badValue: unknown;
}

// One shape for every kind; each handler reads the fields its kind carries.
interface VectorCase {
  kind: string;
  group: string;
  name?: string;
  input?: string;
  inputs?: string[];
  valid?: boolean;
  string?: string;
  requirements?: VectorRequirement[];
  selector?: string;
  selectorSet?: Record<string, string>;
  set?: Record<string, string>;
  labels?: Record<string, string>;
  label?: string;
  match?: boolean;
  empty?: boolean;
  token?: string;
  tokens?: string[];
  includesEndOfString?: boolean;
  expectedError?: string;
  expectedErrors?: ExpectedFieldError[];
  key?: string;
  operator?: string;
  values?: string[];
  found?: boolean;
  value?: string;
  add?: VectorRequirement;
  expectedRequirements?: VectorRequirement[];
}

// The zero-value Go Requirement has operator ""; TypeScript's LabelOperator has no such member.
function requirement(r: VectorRequirement): LabelRequirement {
  return { key: r.key, operator: r.operator as LabelOperator, values: r.values };
}

function plain(reqs: readonly LabelRequirement[]): VectorRequirement[] {
  return reqs.map((r) => ({ key: r.key, operator: r.operator, values: [...r.values] }));
}

// How each operator of TestParseOperator is written inside a whole selector.
function selectorUsingOperator(op: string): string {
  if (op === 'in' || op === 'notin') return `x ${op} (v)`;
  if (op === '>' || op === '<') return `x ${op} 1`;
  return `x ${op} v`;
}

const operatorOfToken: Record<string, LabelOperator> = { in: 'in', notin: 'notin', '=': '=', '==': '==', '!=': '!=', '>': 'gt', '<': 'lt' };

const handlers: Record<string, (c: VectorCase) => void> = {
  parse(c) {
    const input = c.input as string;
    if (!c.valid) {
      assert.throws(() => parseLabelSelector(input), SelectorParseError);
      return;
    }
    const selector = parseLabelSelector(input);
    if (c.string !== undefined) assert.equal(selector.toString(), c.string);
    if (c.requirements !== undefined) {
      assert.deepEqual(plain(selector.requirements), c.requirements);
      assert.equal(selector.empty(), c.requirements.length === 0);
    }
  },
  sameString(c) {
    const [a, b] = (c.inputs as string[]).map((input) => parseLabelSelector(input).toString());
    assert.equal(a, b);
  },
  match(c) {
    assert.equal(parseLabelSelector(c.selector as string).matches(c.labels), c.match);
  },
  matchSelectorFromSet(c) {
    assert.equal(labelSelectorFromSet(c.selectorSet as Record<string, string>).matches(c.labels), c.match);
  },
  matchEverything(c) {
    assert.equal(everythingLabels.matches(c.labels), c.match);
    assert.equal(everythingLabels.empty(), c.empty);
  },
  lex(c) {
    const [first] = lexLabelSelector(c.input as string);
    assert.equal(first?.token, c.token);
    assert.equal(first?.literal, c.input);
  },
  lexSequence(c) {
    let tokens = lexLabelSelector(c.input as string).map((item) => item.token as string);
    // TestLexerSequence stops before EndOfStringToken; TestParserLookahead includes it.
    if (!c.includesEndOfString) tokens = tokens.filter((t) => t !== 'EndOfStringToken');
    assert.deepEqual(tokens, c.tokens);
  },
  parseOperator(c) {
    // Go calls the unexported Parser.parseOperator; here the operator stands between a key and a value.
    const input = selectorUsingOperator(c.input as string);
    if (c.valid) {
      const [r] = parseLabelSelector(input).requirements;
      assert.equal(r?.operator, operatorOfToken[c.input as string]);
    } else {
      assert.throws(() => parseLabelSelector(input), { message: `unable to parse requirement: ${c.expectedError}` });
    }
  },
  newRequirement(c) {
    const errs = validateLabelRequirement(c.key as string, c.operator as string, c.values as string[]);
    const got = errs.map((e) => ({ type: e.type, field: e.field, badValue: e.badValue }));
    assert.deepEqual(got, c.valid ? [] : c.expectedErrors);
    if (c.valid) {
      const r = newLabelRequirement(c.key as string, c.operator as LabelOperator, c.values as string[]);
      assert.deepEqual(plain([r]), [{ key: c.key, operator: c.operator, values: c.values }]);
    } else {
      assert.throws(() => newLabelRequirement(c.key as string, c.operator as LabelOperator, c.values as string[]), SelectorParseError);
    }
  },
  requirementsString(c) {
    assert.equal(labelSelectorFromRequirements((c.requirements as VectorRequirement[]).map(requirement)).toString(), c.string);
  },
  requirementsMatch(c) {
    assert.equal(labelSelectorFromRequirements((c.requirements as VectorRequirement[]).map(requirement)).matches(c.labels), c.match);
  },
  requiresExactMatch(c) {
    const selector = labelSelectorFromRequirements((c.requirements as VectorRequirement[]).map(requirement));
    assert.equal(selector.requiresExactMatch(c.label as string), c.found ? c.value : undefined);
  },
  add(c) {
    const selector = labelSelectorFromRequirements((c.requirements as VectorRequirement[]).map(requirement));
    const added = selector.add(requirement(c.add as VectorRequirement));
    assert.deepEqual(plain(added.requirements), c.expectedRequirements);
    assert.deepEqual(plain(selector.requirements), c.requirements, 'add must not change the receiver');
  },
  setSelectorString(c) {
    assert.equal(labelSelectorFromSet(c.set as Record<string, string>).toString(), c.string);
  },
  validatedSelectorFromSet(c) {
    const set = c.set as Record<string, string>;
    if (c.expectedErrors) {
      assert.throws(
        () => validatedLabelSelectorFromSet(set),
        (err: unknown) => {
          assert.ok(err instanceof SelectorParseError);
          const got = err.fieldErrors.map((e) => ({ type: e.type, field: e.field, badValue: e.badValue }));
          assert.deepEqual(got, c.expectedErrors);
          return true;
        },
      );
    } else {
      assert.deepEqual(plain(validatedLabelSelectorFromSet(set).requirements), c.requirements);
    }
  },
};

// Every case in the file applies to a public behaviour, so every case runs; none is skipped.
describe('label selector vectors (apimachinery v0.33 pkg/labels/selector_test.go)', () => {
  const { cases } = loadVectors('label-selectors.json');
  test('the vector file is complete', () => assert.equal(cases.length, 168));
  cases.forEach((c, i) => {
    const title = `#${i} ${c.kind} ${c.group}${c.name ? ` ${c.name}` : ''} ${JSON.stringify(c.input ?? c.selector ?? c.key ?? c.set ?? '')}`;
    test(title, () => {
      const handler = handlers[c.kind];
      assert.ok(handler, `no handler for vector kind ${c.kind}`);
      handler(c);
    });
  });
});

describe('parseLabelSelector error texts', () => {
  const cases: [string, string][] = [
    ['x=a||y=b', `unable to parse requirement: values[0][x]: Invalid value: "a||y": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x<a', `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['x,,y', "found ',', expected: identifier after ','"],
    [',x,y', "found ',', expected: !, identifier, or 'end of string'"],
    ['x nott in (y)', "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt"],
    ['a in (xyz),', "found '', expected: identifier after ','"],
    ['a in (xyz)b notin ()', "found 'b', expected: ',' or 'end of string'"],
    ['a in (xyz abc)', "unable to parse requirement: found 'abc', expected: ',' or ')'"],
    ['a notin(', "unable to parse requirement: found '', expected: ',', ')' or identifier"],
    ['a in x', "unable to parse requirement: found 'x' expected: '('"],
    ['a in (,,)', "unable to parse requirement: found ')', expected: ',', or identifier"],
    ['a=(', "unable to parse requirement: found '(', expected: identifier"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['(', "found '(', expected: !, identifier, or 'end of string'"],
    [
      'a/b/c',
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
    ['x in (-a,b-)', `unable to parse requirement: [values[0][x]: Invalid value: "-a": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), values[1][x]: Invalid value: "b-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]`],
  ];
  for (const [input, message] of cases) {
    test(JSON.stringify(input), () => assert.throws(() => parseLabelSelector(input), { name: 'SelectorParseError', message }));
  }

  test('a field path prefixes requirement errors', () => {
    assert.throws(() => parseLabelSelector('x>a', 'spec.selector'), {
      message: `unable to parse requirement: spec.selector.values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    });
    assert.throws(() => parseLabelSelector('-x', 'spec.selector'), { message: /^unable to parse requirement: spec\.selector: Invalid value: "-x": name part must consist/ });
  });

  test('requirement errors carry their field errors', () => {
    try {
      parseLabelSelector('x in (-a)');
      assert.fail('expected a parse error');
    } catch (err) {
      assert.ok(err instanceof SelectorParseError);
      assert.deepEqual(
        err.fieldErrors.map((e) => [e.type, e.field, e.badValue]),
        [['FieldValueInvalid', 'values[0][x]', '-a']],
      );
    }
  });
});

describe('parseLabelSelector behaviour', () => {
  test('canonical String() sorts keys and values and drops spaces', () => {
    assert.equal(parseLabelSelector(' z in (b, a) , !y,x==1, w notin (q),v>3 ').toString(), 'v>3,w notin (q),x==1,!y,z in (a,b)');
  });

  test('duplicate keys keep their relative order after sorting', () => {
    assert.equal(parseLabelSelector('b=1,a=2,b!=3').toString(), 'a=2,b=1,b!=3');
  });

  test('in and notin are identifiers outside operator position', () => {
    const s = parseLabelSelector('in in (notin,in),notin=in');
    assert.deepEqual(plain(s.requirements), [
      { key: 'in', operator: 'in', values: ['in', 'notin'] },
      { key: 'notin', operator: '=', values: ['in'] },
    ]);
    assert.equal(s.matches({ in: 'notin', notin: 'in' }), true);
  });

  test('a NUL character ends the input where a token would start, as kube lexes it', () => {
    assert.equal(parseLabelSelector('a=b \u0000,garbage(').toString(), 'a=b');
    assert.equal(parseLabelSelector('\u0000x').empty(), true);
    // Inside a token the NUL is swallowed and only ends that token.
    assert.throws(() => parseLabelSelector('a=b\u0000c'), { message: "found 'c', expected: ',' or 'end of string'" });
  });

  test('keys that are Object.prototype members are ordinary keys', () => {
    const s = parseLabelSelector('constructor,!toString');
    assert.equal(s.matches({}), false);
    assert.equal(s.matches({ constructor: 'x' }), true);
    assert.equal(s.matches({ constructor: 'x', toString: 'y' }), false);
  });

  test('gt and lt compare as int64', () => {
    const gt = parseLabelSelector('x>9007199254740993');
    assert.equal(gt.matches({ x: '9007199254740994' }), true);
    assert.equal(gt.matches({ x: '9007199254740993' }), false);
    assert.equal(gt.matches({ x: '9223372036854775808' }), false, 'out of int64 range never matches');
    assert.equal(parseLabelSelector('x<10').matches({ x: '+9' }), true, 'ParseInt accepts a sign');
    assert.equal(parseLabelSelector('x<10').matches({ x: '0009' }), true);
    assert.equal(parseLabelSelector('x<10').matches({ x: '9.0' }), false);
    assert.equal(parseLabelSelector('x<10').matches({ x: '' }), false);
    assert.equal(parseLabelSelector('x<10').matches({}), false);
    assert.throws(() => parseLabelSelector('x>9223372036854775808'), /the value must be an integer/);
  });

  test('absent labels: notin and != match, in and = do not', () => {
    assert.equal(parseLabelSelector('x notin (a)').matches(undefined), true);
    assert.equal(parseLabelSelector('x!=a').matches({}), true);
    assert.equal(parseLabelSelector('x in (a)').matches(undefined), false);
    assert.equal(parseLabelSelector('x=').matches({}), false);
    assert.equal(parseLabelSelector('x=').matches({ x: '' }), true);
  });

  test('requiresExactMatch looks only at the first requirement on the key', () => {
    const s = parseLabelSelector('a in (x),a!=y');
    assert.equal(s.requiresExactMatch('a'), 'x');
    assert.equal(parseLabelSelector('a!=y,a=x').requiresExactMatch('a'), undefined);
    assert.equal(parseLabelSelector('a').requiresExactMatch('a'), undefined);
  });
});

describe('selector constructors', () => {
  test('labelSelectorFromSet is not validated and sorts in Go byte order', () => {
    const s = labelSelectorFromSet({ 'b b': '!', '\u{1F600}': 'x', '\uFF21': 'y' });
    assert.equal(s.toString(), 'b b=!,\uFF21=y,\u{1F600}=x');
    assert.equal(labelSelectorFromSet({}), everythingLabels);
  });

  test('validatedLabelSelectorFromSet reports kube text', () => {
    assert.throws(() => validatedLabelSelectorFromSet({ a: 'b c' }), {
      message: `values[0][a]: Invalid value: "b c": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    });
  });

  test('nothingLabels selects nothing and is not empty', () => {
    assert.equal(nothingLabels.matches({}), false);
    assert.equal(nothingLabels.empty(), false);
    assert.equal(nothingLabels.toString(), '');
    assert.equal(nothingLabels.add({ key: 'a', operator: 'exists', values: [] }), nothingLabels);
  });

  test('newLabelRequirement aggregates several errors as kube does', () => {
    assert.throws(() => newLabelRequirement('x', 'gt', ['a', 'b']), {
      message:
        `[values: Invalid value: []string{"a", "b"}: for 'Gt', 'Lt' operators, exactly one value is required, ` +
        `values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer, ` +
        `values[1]: Invalid value: "b": for 'Gt', 'Lt' operators, the value must be an integer]`,
    });
    assert.throws(() => newLabelRequirement('x', 'bogus' as LabelOperator, []), {
      message: 'operator: Unsupported value: "bogus": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"',
    });
    assert.throws(() => newLabelRequirement('x', 'in', null), {
      message: "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    });
  });
});
