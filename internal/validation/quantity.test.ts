import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { newDecimalQuantity, newQuantity, parseQuantity, quantityErrorOf, quantityFromJSON, QuantityError } from './quantity.js';
import { quantityFormatWrongMessage, quantityNumericMessage, quantitySuffixMessage, scanQuantity } from './quantity-syntax.js';

interface ValueAndFormat {
  value: string;
  format: string;
}

// One shape for every kind of case; each handler reads the fields its kind carries.
interface VectorCase extends Partial<ValueAndFormat> {
  kind: string;
  group: string;
  input?: string;
  json?: string;
  valid?: boolean;
  string?: string;
  expected?: string | number;
  positive?: boolean;
  num?: string;
  denom?: string;
  suffix?: string;
  x?: string;
  y?: string;
  a?: string | ValueAndFormat;
  b?: string | number | ValueAndFormat;
  cmp?: number;
  scale?: number;
  exact?: boolean;
  ok?: boolean;
  marshalJSON?: string;
  fromScale?: number;
  toScale?: number;
  float64?: number | string;
  method?: string;
}

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

const exact = (vf: ValueAndFormat) => newDecimalQuantity(vf.value, vf.format);

function checkParse(c: VectorCase): void {
  const input = c.input as string;
  if (!c.valid) {
    assert.throws(() => parseQuantity(input), QuantityError);
    return;
  }
  const want = newDecimalQuantity(c.value as string);
  for (const [prefix, sign] of [['', 1], ['-', -1], ['+', 1]] as const) {
    const got = parseQuantity(prefix + input);
    assert.equal(got.cmp(sign === 1 ? want : want.neg()), 0, `${prefix}${input}: value ${got.toDecimalString()}, want ${c.value}`);
    assert.equal(got.format, c.format, `${prefix}${input}: format`);
  }
}

function checkFloat(c: VectorCase): void {
  const q = c.input !== undefined ? parseQuantity(c.input) : exact(c as ValueAndFormat);
  const want = c.float64 === '+Inf' ? Infinity : c.float64 === '-Inf' ? -Infinity : (c.float64 as number);
  const got = c.method === 'AsFloat64Slow' ? q.asFloat64Slow() : q.asApproximateFloat64();
  assert.equal(got, want);
}

const handlers: Record<string, (c: VectorCase) => void> = {
  parse: checkParse,
  parseQuantityString(c) {
    assert.deepEqual(scanQuantity(c.input as string), { positive: c.positive, value: c.value, num: c.num, denom: c.denom, suffix: c.suffix });
  },
  canonical(c) {
    assert.equal(parseQuantity(c.input as string).toString(), c.string);
  },
  string(c) {
    assert.equal(exact(c as ValueAndFormat).toString(), c.string);
  },
  unmarshalJSON(c) {
    if (c.json === undefined) {
      const q = parseQuantity(c.input as string);
      assert.equal(q.toString(), c.string);
      assert.equal(q.value().toString(), c.value);
      assert.equal(JSON.stringify(q), c.marshalJSON);
      return;
    }
    const decoded: unknown = JSON.parse(c.json);
    if (c.valid === false) assert.throws(() => quantityFromJSON(decoded), QuantityError);
    else assert.equal(quantityFromJSON(decoded).toString(), c.string);
  },
  cmp(c) {
    assert.equal(parseQuantity(c.x as string).cmp(parseQuantity(c.y as string)), c.cmp);
  },
  cmpValues(c) {
    const a = newDecimalQuantity(c.a as string);
    const b = newDecimalQuantity(c.b as string);
    assert.equal(a.cmp(b), c.cmp);
    assert.equal(b.cmp(a), -(c.cmp as number) || 0);
  },
  roundUp(c) {
    const { quantity, exact: wasExact } = parseQuantity(c.input as string).roundUp(c.scale as number);
    assert.equal(quantity.cmp(newDecimalQuantity(c.value as string)), 0, `got ${quantity.toDecimalString()}`);
    assert.equal(wasExact, c.exact);
  },
  neg(c) {
    const negated = exact(c as ValueAndFormat).neg();
    if (c.string !== undefined) assert.equal(negated.toString(), c.string);
    else assert.equal(negated.cmp(newDecimalQuantity(String(c.expected))), 0);
  },
  add(c) {
    const sum = exact(c.a as ValueAndFormat).add(exact(c.b as ValueAndFormat));
    assert.equal(sum.cmp(newDecimalQuantity(String(c.expected))), 0);
  },
  sub(c) {
    const diff = exact(c.a as ValueAndFormat).sub(exact(c.b as ValueAndFormat));
    assert.equal(diff.cmp(newDecimalQuantity(String(c.expected))), 0);
  },
  mul(c) {
    const { quantity, ok } = exact(c.a as ValueAndFormat).mul(BigInt(c.b as number));
    assert.equal(quantity.cmp(newDecimalQuantity(String(c.expected))), 0, `got ${quantity.toDecimalString()}`);
    assert.equal(ok, c.ok);
  },
  newMilliQuantity(c) {
    const q = newQuantity(BigInt(c.value as unknown as number), -3, c.format);
    assert.equal(q.toString(), c.string);
    if (c.exact) assert.equal(parseQuantity(q.toString()).milliValue(), BigInt(c.value as unknown as number));
  },
  newQuantity(c) {
    const q = newQuantity(BigInt(c.value as unknown as number), 0, c.format);
    assert.equal(q.toString(), c.string);
    assert.equal(parseQuantity(q.toString()).value(), BigInt(c.value as unknown as number));
  },
  newScaledQuantity(c) {
    assert.equal(newQuantity(BigInt(c.value as unknown as number), c.scale).toString(), c.string);
  },
  scaledValue(c) {
    assert.equal(newQuantity(1n, c.fromScale).scaledValue(c.toScale as number), BigInt(c.expected as number));
  },
  asFloat64: checkFloat,
};

describe('resource.Quantity over apimachinery v0.33.13 quantity_test.go vectors', () => {
  const { cases } = loadVectors('quantities.json');
  test('the vector file holds every case the upstream tables give', () => {
    assert.equal(cases.length, 491);
  });
  cases.forEach((c, i) => {
    const label = `${c.group} #${i} ${c.kind} ${JSON.stringify(c.input ?? c.json ?? c.value ?? c.x ?? c.a ?? c.fromScale)}`;
    test(label, () => {
      const handler = handlers[c.kind];
      assert.ok(handler, `no handler for kind ${c.kind}`);
      handler(c);
    });
  });
});

describe('ParseQuantity error texts', () => {
  test('each failure gives the text kube gives', () => {
    assert.equal(quantityErrorOf(''), quantityFormatWrongMessage);
    assert.equal(quantityErrorOf('1x'), quantityFormatWrongMessage);
    assert.equal(quantityErrorOf('0.1mi'), quantitySuffixMessage);
    assert.equal(quantityErrorOf('.e-10'), quantityNumericMessage);
    assert.equal(quantityErrorOf({}), quantityFormatWrongMessage);
    assert.equal(quantityErrorOf('500m'), undefined);
    assert.equal(
      quantityFormatWrongMessage,
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    );
  });

  test('a canonical input is remembered verbatim, as kube caches it', () => {
    assert.equal(parseQuantity('+1').toString(), '+1');
    assert.equal(parseQuantity('1E3').toString(), '1E3');
    assert.equal(parseQuantity('1000m').toString(), '1');
    assert.equal(parseQuantity('1.5Gi').toString(), '1536Mi');
    assert.equal(parseQuantity('1000E').toString(), '1e21');
  });

  test('JSON numbers parse from their text and null is zero', () => {
    assert.equal(quantityFromJSON(0.5).toString(), '500m');
    assert.equal(quantityFromJSON(2).toString(), '2');
    assert.equal(quantityFromJSON(null).toString(), '0');
  });

  test('huge exponents compare and round without expanding', () => {
    assert.equal(parseQuantity('1e999999999').cmp(parseQuantity('1E')), 1);
    assert.equal(parseQuantity('1e-999999').toString(), '1e-9');
  });
});
