/**
 * JSON create bodies for the body fuzzer: valid objects with hostile metadata, truncated and
 * mangled JSON, duplicate keys, integers past 2^53 and floats where ints belong, wrong kinds and
 * apiVersions, unicode and NUL in data, ConfigMap data around kube's 1 MiB limit, and nesting 9,000
 * and 10,001 levels deep in unknown fields and data values.
 */
import fc from 'fast-check';
import { fuzzRequest, type Expectation, type FuzzRequest } from './fuzz-bodies-oracle.js';
import { freshName, hostileString, metaCase } from './fuzz-bodies-gen-meta.js';
import { fuzzResources, validObject, type FuzzResource } from './fuzz-bodies-resources.js';

const json = 'application/json';
const resource = fc.constantFrom(...fuzzResources);
const byKind = (kind: string): FuzzResource => fuzzResources.find((r) => r.kind === kind)!;

/** A POST of text to r's collection. */
export function post(r: FuzzResource, label: string, body: string | Buffer, expect: Expectation, contentType = json, query = ''): FuzzRequest {
  return fuzzRequest({ label, method: 'POST', path: `${r.path}${query}`, contentType, body: Buffer.from(body), expect, keyPrefix: r.keyPrefix });
}

const okOr = (valid: boolean, code = 422, reason = 'Invalid'): Expectation => (valid ? { kind: 'ok' } : { kind: 'fail', code, reason });

/** A value nested depth levels deep, in objects or arrays. */
export function nested(depth: number, arrays: boolean): string {
  return arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"x":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

const withMeta = fc.tuple(resource, metaCase).map(([r, m]) => post(r, `create, ${m.note}`, JSON.stringify({ ...validObject(r, ''), metadata: m.meta }), okOr(m.valid)));

const truncated = fc.tuple(resource, freshName, fc.double({ min: 0, max: 1, noNaN: true })).map(([r, name, at]) => {
  const text = JSON.stringify(validObject(r, name));
  return post(r, 'truncated JSON', text.slice(0, Math.floor(at * (text.length - 1))), { kind: 'fail', code: 400, reason: 'BadRequest' });
});

const mangled = fc.tuple(resource, freshName, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 })).map(([r, name, flips]) => {
  const buf = Buffer.from(JSON.stringify(validObject(r, name)));
  for (const [at, byte] of flips) buf[at % buf.length] = byte;
  return post(r, 'bytes flipped', buf, { kind: 'either' });
});

const garbage = fc.tuple(resource, fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.constantFrom('', 'null', '[]', '"x"', '1', 'true', '{', '}', '{}', '{"kind":', '\u0000', '\ufeff{}'))).map(([r, g]) =>
  post(r, 'garbage', typeof g === 'string' ? g : Buffer.from(g), { kind: 'either' }),
);

// fieldValidation unset is kube's Warn: the last of repeated keys wins and the write succeeds.
const duplicates = fc.tuple(resource, freshName, freshName, fc.boolean()).map(([r, first, last, strict]) => {
  const { metadata: _m, ...rest } = validObject(r, last);
  const text = `{"metadata":{"name":${JSON.stringify(first)},"name":${JSON.stringify(last)}},${JSON.stringify(rest).slice(1)}`;
  return strict
    ? post(r, 'duplicate key, strict', text, { kind: 'fail', code: 400, reason: 'BadRequest', message: /duplicate field "metadata\.name"/ }, json, '?fieldValidation=Strict')
    : post(r, 'duplicate key', text, { kind: 'ok' });
});

const replicaValues: readonly [string, Expectation][] = [
  ['9007199254740993', { kind: 'fail', code: 400, reason: 'BadRequest' }],
  ['2147483648', { kind: 'fail', code: 400, reason: 'BadRequest' }],
  ['1e400', { kind: 'fail', code: 400, reason: 'BadRequest' }],
  ['1.5', { kind: 'fail', code: 400, reason: 'BadRequest' }],
  // strconv.ParseInt refuses a fraction or an exponent whatever the value.
  ...['1e3', '1.0', '1E3', '-0.0e1'].map((v): [string, Expectation] => [
    v,
    { kind: 'fail', code: 400, reason: 'BadRequest', message: `Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number ${v} into Go struct field DeploymentSpec.spec.replicas of type int32` },
  ]),
  ['-1', { kind: 'fail', code: 422, reason: 'Invalid' }],
  ['2147483647', { kind: 'ok' }],
  ['"3"', { kind: 'fail', code: 400, reason: 'BadRequest' }],
];

const bigNumbers = fc.oneof(
  fc.tuple(freshName, fc.constantFrom(...replicaValues)).map(([name, [v, expect]]) => {
    const text = JSON.stringify(validObject(byKind('Deployment'), name)).replace('"replicas":1', `"replicas":${v}`);
    return post(byKind('Deployment'), `replicas ${v}`, text, expect);
  }),
  fc.tuple(freshName, fc.constantFrom('9007199254740993', '-9007199254740993', '1.5', '1e3', '1.0', '1e400', '9223372036854775808', '"3"')).map(([name, v]) => {
    const text = JSON.stringify(validObject(byKind('Widget'), name)).replace('"size":3', `"size":${v}`);
    // A custom resource decodes into unstructured JSON, and kube-openapi's type check takes a
    // float64 with an integral value (1e3, 1.0) as an integer.
    const integral = v.length === 16 || v.length === 17 || v === '1e3' || v === '1.0';
    const expect: Expectation = v === '1.5' || v === '"3"' ? { kind: 'fail', code: 422, reason: 'Invalid' } : integral ? { kind: 'ok' } : { kind: 'either' };
    return post(byKind('Widget'), `widget size ${v}`, text, expect);
  }),
  fc.tuple(freshName, fc.constantFrom('9223372036854775808', '1e30', '0.5')).map(([name, v]) => {
    const text = JSON.stringify(validObject(byKind('Pod'), name)).replace('"spec":{', `"spec":{"activeDeadlineSeconds":${v},`);
    return post(byKind('Pod'), `activeDeadlineSeconds ${v}`, text, { kind: 'fail', code: 400, reason: 'BadRequest' });
  }),
);

const wrongType = fc.tuple(resource, freshName, fc.constantFrom(...fuzzResources), fc.constantFrom('kind', 'apiVersion', 'both', 'missing', 'number', 'lower')).map(([r, name, other, how]) => {
  const obj: Record<string, unknown> = validObject(r, name);
  if (how === 'kind' || how === 'both') obj.kind = other.kind;
  if (how === 'apiVersion' || how === 'both') obj.apiVersion = other.apiVersion === r.apiVersion ? 'v2' : other.apiVersion;
  if (how === 'missing') {
    delete obj.kind;
    delete obj.apiVersion;
  }
  if (how === 'number') obj.kind = 7;
  if (how === 'lower') obj.kind = r.kind.toLowerCase();
  const same = obj.kind === r.kind && obj.apiVersion === r.apiVersion;
  return post(r, `wrong type meta (${how}: ${String(obj.apiVersion)} ${String(obj.kind)})`, JSON.stringify(obj), how === 'missing' || same ? { kind: 'ok' } : { kind: 'fail', code: 400, reason: 'BadRequest' });
});

const unicodeData = fc.tuple(freshName, fc.dictionary(fc.oneof(fc.constantFrom('k', 'a.b', '-_.'), hostileString), fc.string({ unit: 'binary', maxLength: 30 }), { maxKeys: 4 })).map(([name, data]) => {
  const keysValid = Object.keys(data).every((k) => /^[-._a-zA-Z0-9]+$/.test(k) && k.length <= 253 && k !== '.' && k !== '..' && !k.startsWith('..'));
  return post(byKind('ConfigMap'), 'unicode data', JSON.stringify({ ...validObject(byKind('ConfigMap'), name), data }), okOr(keysValid));
});

// kube counts a ConfigMap's data in UTF-8 bytes against 1 MiB.
const bigData = fc.tuple(freshName, fc.constantFrom('a', 'é', '€', '😀'), fc.integer({ min: -8, max: 8 })).map(([name, ch, delta]) => {
  const bytes = 1024 * 1024 + delta * Buffer.byteLength(ch);
  const value = ch.repeat(Math.floor(bytes / Buffer.byteLength(ch)));
  return post(byKind('ConfigMap'), `data of ${Buffer.byteLength(value)} bytes in ${ch}`, JSON.stringify({ ...validObject(byKind('ConfigMap'), name), data: { k: value } }), okOr(Buffer.byteLength(value) <= 1024 * 1024));
});

const deep = fc.tuple(resource, freshName, fc.constantFrom(9000, 10_001, 20_000), fc.boolean(), fc.constantFrom('unknown', 'data', 'label')).map(([r, name, depth, arrays, where]) => {
  const base = JSON.stringify(validObject(r, name));
  const v = nested(depth, arrays);
  const text = where === 'unknown' ? `{"zz":${v},${base.slice(1)}` : where === 'label' ? base.replace('"metadata":{', `"metadata":{"labels":{"a":${v}},`) : base.replace('"metadata":{', `"metadata":{"annotations":${v},`);
  // Go's JSON decoder refuses nesting past 10,000 levels; below that an unknown field is dropped.
  const expect: Expectation = depth > 10_000 ? { kind: 'fail', code: 400, reason: 'BadRequest' } : where === 'unknown' ? { kind: 'either' } : { kind: 'fail', code: 400, reason: 'BadRequest' };
  return post(r, `nested ${depth} deep (${arrays ? 'arrays' : 'objects'}) in ${where}`, text, expect);
});

/** JSON create requests. */
export const createRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { weight: 6, arbitrary: withMeta },
  { weight: 2, arbitrary: truncated },
  { weight: 2, arbitrary: mangled },
  { weight: 1, arbitrary: garbage },
  { weight: 2, arbitrary: duplicates },
  { weight: 2, arbitrary: bigNumbers },
  { weight: 2, arbitrary: wrongType },
  { weight: 2, arbitrary: unicodeData },
  { weight: 1, arbitrary: bigData },
  { weight: 1, arbitrary: deep },
);
