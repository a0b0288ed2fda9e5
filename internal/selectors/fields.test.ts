import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import {
  type FieldTerm,
  SelectorParseError,
  escapeFieldValue,
  everythingFields,
  fieldSelectorFromSet,
  fieldSelectorFromTerms,
  fieldSelectorOneTermEqual,
  parseAndTransformFieldSelector,
  parseFieldSelector,
  splitFieldSelectorTerm,
  splitFieldSelectorTerms,
  unescapeFieldValue,
} from './fields.js';

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

/** The term trees of TestRequiresExactMatch: hasTerm, notHasTerm, andTerm (null = nil) and Set.AsSelector(). */
type TermTree =
  | { has: { field: string; value: string } }
  | { notHas: { field: string; value: string } }
  | { and: TermTree[] | null }
  | { set: Record<string, string> };

interface TransformSpec {
  kind: 'identity' | 'rewrite' | 'dropAll' | 'drop';
  whenField?: string;
  to?: { field: string; value: string };
}

interface VectorCase {
  kind: string;
  group: string;
  name?: string;
  input?: string;
  terms?: string[] | null;
  lhs?: string;
  op?: string;
  rhs?: string;
  ok?: boolean;
  unescaped?: string;
  escaped?: string;
  valid?: boolean;
  expectedError?: string;
  string?: string;
  inputs?: string[];
  selector?: string | TermTree;
  selectorSet?: Record<string, string>;
  fields?: Record<string, string>;
  field?: string;
  value?: string;
  match?: boolean;
  empty?: boolean;
  found?: boolean;
  transform?: TransformSpec;
}

// An andTerm nests; its RequiresExactMatch is the first hit in order, so the flat term list is equivalent.
function flatten(tree: TermTree): FieldTerm[] {
  if ('has' in tree) return [{ field: tree.has.field, operator: '=', value: tree.has.value }];
  if ('notHas' in tree) return [{ field: tree.notHas.field, operator: '!=', value: tree.notHas.value }];
  if ('and' in tree) return (tree.and ?? []).flatMap(flatten);
  return fieldSelectorFromSet(tree.set).terms.slice();
}

function transformFn(spec: TransformSpec): (field: string, value: string) => [string, string] {
  switch (spec.kind) {
    case 'identity':
      return (field, value) => [field, value];
    case 'rewrite':
      return (field, value) => (field === spec.whenField ? [spec.to?.field ?? '', spec.to?.value ?? ''] : [field, value]);
    case 'dropAll':
      return () => ['', ''];
    case 'drop':
      return (field, value) => (field === spec.whenField ? ['', ''] : [field, value]);
  }
}

const handlers: Record<string, (c: VectorCase) => void> = {
  splitTerms(c) {
    // Go returns a nil slice (null in the vector) for the empty selector; here that is [].
    assert.deepEqual(splitFieldSelectorTerms(c.input as string), c.terms ?? []);
  },
  splitTerm(c) {
    const got = splitFieldSelectorTerm(c.input as string);
    assert.deepEqual(got, c.ok ? { lhs: c.lhs, op: c.op, rhs: c.rhs } : undefined);
  },
  escapeValue(c) {
    assert.equal(escapeFieldValue(c.unescaped as string), c.escaped);
    assert.equal(unescapeFieldValue(c.escaped as string), c.unescaped);
  },
  unescapeValue(c) {
    assert.equal(c.expectedError, 'InvalidEscapeSequence');
    assert.throws(() => unescapeFieldValue(c.escaped as string), {
      name: 'SelectorParseError',
      message: /^invalid field selector: invalid escape sequence: /,
    });
  },
  parse(c) {
    if (!c.valid) {
      assert.throws(() => parseFieldSelector(c.input as string), SelectorParseError);
      return;
    }
    assert.equal(parseFieldSelector(c.input as string).toString(), c.string);
  },
  sameString(c) {
    const [a, b] = (c.inputs as string[]).map((input) => parseFieldSelector(input).toString());
    assert.equal(a, b);
  },
  match(c) {
    assert.equal(parseFieldSelector(c.selector as string).matches(c.fields as Record<string, string>), c.match);
  },
  oneTermEqualMatch(c) {
    assert.equal(fieldSelectorOneTermEqual(c.field as string, c.value as string).matches(c.fields as Record<string, string>), c.match);
  },
  matchEverything(c) {
    assert.equal(everythingFields.matches(c.fields as Record<string, string>), c.match);
    assert.equal(everythingFields.empty(), c.empty);
  },
  matchSelectorFromSet(c) {
    assert.equal(fieldSelectorFromSet(c.selectorSet as Record<string, string>).matches(c.fields as Record<string, string>), c.match);
  },
  requiresExactMatch(c) {
    const selector = fieldSelectorFromTerms(flatten(c.selector as TermTree));
    assert.equal(selector.requiresExactMatch(c.field as string), c.found ? c.value : undefined);
  },
  transform(c) {
    const fn = transformFn(c.transform as TransformSpec);
    for (const selector of [
      parseAndTransformFieldSelector(c.selector as string, fn),
      parseFieldSelector(c.selector as string).transform(fn),
    ]) {
      assert.equal(selector.toString(), c.string);
      assert.equal(selector.empty(), c.empty);
    }
  },
};

// Every case in the file applies to a public behaviour, so every case runs; none is skipped.
describe('field selector vectors (apimachinery v0.33 pkg/fields/selector_test.go)', () => {
  const { cases } = loadVectors('field-selectors.json');
  test('the vector file is complete', () => assert.equal(cases.length, 85));
  cases.forEach((c, i) => {
    const subject = c.input ?? c.selector ?? c.escaped ?? c.selectorSet ?? c.field ?? '';
    test(`#${i} ${c.kind} ${c.group}${c.name ? ` ${c.name}` : ''} ${JSON.stringify(subject)}`, () => {
      const handler = handlers[c.kind];
      assert.ok(handler, `no handler for vector kind ${c.kind}`);
      handler(c);
    });
  });
});

describe('field selector error texts', () => {
  const cases: [string, string][] = [
    ['x=a,b', "invalid selector: 'x=a,b'; can't understand 'b'"],
    ['x', "invalid selector: 'x'; can't understand 'x'"],
    ['x in (a)', "invalid selector: 'x in (a)'; can't understand 'x in (a)'"],
    ['x==a==b', 'invalid field selector: unescaped character in value: 61'],
    ['x=a,y=b\\,c=d', 'invalid field selector: unescaped character in value: 61'],
    ['x=\\q', 'invalid field selector: invalid escape sequence: \\q'],
    ['x=\\\u{1F600}', 'invalid field selector: invalid escape sequence: \\\u{1F600}'],
    ['x=a\\', 'invalid field selector: invalid escape sequence: \\'],
  ];
  for (const [input, message] of cases) {
    test(JSON.stringify(input), () => assert.throws(() => parseFieldSelector(input), { name: 'SelectorParseError', message }));
  }

  test('an unescaped comma in a value reports its code point', () => {
    assert.throws(() => unescapeFieldValue('a,b'), { message: 'invalid field selector: unescaped character in value: 44' });
  });

  test('parts are checked in sorted order', () => {
    assert.throws(() => parseFieldSelector('z,a=\\q'), { message: 'invalid field selector: invalid escape sequence: \\q' });
  });
});

describe('field selector behaviour', () => {
  test('absent fields read as the empty string', () => {
    assert.equal(parseFieldSelector('spec.nodeName=').matches({}), true);
    assert.equal(parseFieldSelector('spec.nodeName!=').matches({}), false);
    assert.equal(parseFieldSelector('spec.nodeName!=a').matches({ constructor: 'x' }), true);
    assert.equal(parseFieldSelector('constructor=').matches({}), true, 'prototype members are not fields');
  });

  test('== parses as = and terms sort by their raw text', () => {
    const s = parseFieldSelector('metadata.name==a,metadata.namespace!=b,,');
    assert.deepEqual(s.terms, [
      { field: 'metadata.name', operator: '=', value: 'a' },
      { field: 'metadata.namespace', operator: '!=', value: 'b' },
    ]);
    assert.equal(s.toString(), 'metadata.name=a,metadata.namespace!=b');
  });

  test('terms with empty field and value vanish on parse, as kube transforms them to Everything', () => {
    assert.equal(parseFieldSelector('=').empty(), true);
    assert.equal(parseFieldSelector('!=,a=b').toString(), 'a=b');
    assert.equal(parseFieldSelector('=b').toString(), '=b');
  });

  test('parseAndTransform sees a term before an empty one would be dropped', () => {
    const s = parseAndTransformFieldSelector('=', (field, value) => [field || 'metadata.name', value]);
    assert.equal(s.toString(), 'metadata.name=');
  });

  test('transform errors propagate', () => {
    assert.throws(
      () =>
        parseFieldSelector('bogus=1').transform((field) => {
          throw new Error(`field label not supported: ${JSON.stringify(field)}`);
        }),
      { message: 'field label not supported: "bogus"' },
    );
  });

  test('values round-trip through escaping', () => {
    const s = fieldSelectorFromSet({ 'metadata.name': 'a,b=c\\d' });
    assert.equal(s.toString(), 'metadata.name=a\\,b\\=c\\\\d');
    assert.equal(parseFieldSelector(s.toString()).matches({ 'metadata.name': 'a,b=c\\d' }), true);
  });

  test('requiresExactMatch ignores != terms', () => {
    assert.equal(parseFieldSelector('a!=x,a=y').requiresExactMatch('a'), 'y');
    assert.equal(parseFieldSelector('a!=x').requiresExactMatch('a'), undefined);
  });
});
