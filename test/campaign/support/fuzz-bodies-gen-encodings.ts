/**
 * Body encodings for the body fuzzer: YAML (valid, alias bombs that expand without bound,
 * multi-document, deep nesting, tabs and garbage), Kubernetes Protobuf (valid, random bytes, the
 * k8s magic with garbage, truncated messages, type meta naming another kind), and bodies past
 * kube's 3 MiB limit in every encoding (413 RequestEntityTooLarge).
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { encodeObject, PROTOBUF_MAGIC } from '../../../proto/codec.js';
import type { JsonObject } from '../../../proto/types.js';
import { post } from './fuzz-bodies-gen-create.js';
import { freshName } from './fuzz-bodies-gen-meta.js';
import type { Expectation, FuzzRequest } from './fuzz-bodies-oracle.js';
import { fuzzResources, validObject } from './fuzz-bodies-resources.js';

const yaml = 'application/yaml';
const protobuf = 'application/vnd.kubernetes.protobuf';
const resource = fc.constantFrom(...fuzzResources);
const builtIn = fc.constantFrom(...fuzzResources.filter((r) => r.strategic));
const badRequest: Expectation = { kind: 'fail', code: 400, reason: 'BadRequest' };

/** kube-apiserver's answer to a body past --max-request-body-bytes' default of 3 MiB. */
export const tooLarge: Expectation = { kind: 'fail', code: 413, reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' };

/** A YAML alias bomb: each level a list of ten aliases of the one before. */
export function yamlBomb(levels: number, name: string): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < levels; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(',')}]`);
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\nbomb:\n  ${lines.join('\n  ')}\n`;
}

const yamlValid = fc.tuple(resource, freshName).map(([r, name]) => post(r, 'YAML', yamlStringify(validObject(r, name)), { kind: 'ok' }, yaml));

const yamlHostile = fc.tuple(fc.constantFrom(...fuzzResources), freshName, freshName, fc.constantFrom('bomb', 'multi', 'deep', 'tabs', 'truncated', 'garbage', 'anchor-ok')).map(([r, name, other, how]) => {
  const doc = yamlStringify(validObject(r, name));
  switch (how) {
    case 'bomb':
      return post(r, 'YAML alias bomb', yamlBomb(9, name), badRequest, yaml);
    case 'multi':
      return post(r, 'multi-document YAML', `${doc}---\n${yamlStringify(validObject(r, other))}`, { kind: 'either' }, yaml);
    case 'deep':
      return post(r, 'YAML nested 10,001 deep', doc.replace('metadata:', `zz: ${'['.repeat(10_001)}${']'.repeat(10_001)}\nmetadata:`), { kind: 'either' }, yaml);
    case 'tabs':
      return post(r, 'YAML with a tab indent', doc.replace('\n  name:', '\n\tname:'), badRequest, yaml);
    case 'truncated':
      return post(r, 'truncated YAML', doc.slice(0, doc.indexOf('name:') + 3), { kind: 'either' }, yaml);
    case 'garbage':
      return post(r, 'YAML garbage', '&a [*a]\n: : :\n- ]', { kind: 'fail' }, yaml);
    default:
      // A few aliases are fine: kube only refuses excessive aliasing.
      return post(r, 'YAML with anchors', `x: &v keep\n${doc.replace('metadata:\n', 'metadata:\n  labels: {l: *v}\n')}`, { kind: 'ok' }, yaml);
  }
});

function protobufOf(obj: Record<string, unknown>): Buffer {
  return Buffer.from(encodeObject(obj as JsonObject));
}

const protobufCases = fc.tuple(builtIn, freshName, fc.constantFrom('valid', 'random', 'magic', 'truncated', 'other-kind', 'flipped'), fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.double({ min: 0, max: 1, noNaN: true })).map(([r, name, how, bytes, at]) => {
  const valid = protobufOf(validObject(r, name));
  switch (how) {
    case 'valid':
      return post(r, 'Protobuf', valid, { kind: 'ok' }, protobuf);
    case 'random':
      return post(r, 'Protobuf of random bytes', Buffer.from(bytes), { kind: 'fail' }, protobuf);
    case 'magic':
      return post(r, 'Protobuf magic and garbage', Buffer.concat([PROTOBUF_MAGIC, bytes]), { kind: 'either' }, protobuf);
    case 'truncated':
      return post(r, 'truncated Protobuf', valid.subarray(0, Math.max(4, Math.floor(at * (valid.length - 1)))), { kind: 'either' }, protobuf);
    case 'other-kind': {
      const other = fuzzResources.find((o) => o.strategic && o.kind !== r.kind)!;
      return post(r, `Protobuf of a ${other.kind}`, protobufOf(validObject(other, name)), badRequest, protobuf);
    }
    default: {
      const flipped = Buffer.from(valid);
      for (let i = 0; i < bytes.length && i < 4; i++) flipped[4 + ((bytes[i] ?? 0) % (flipped.length - 4))] = bytes[(i + 1) % bytes.length] ?? 0;
      return post(r, 'Protobuf with bytes flipped', flipped, { kind: 'either' }, protobuf);
    }
  }
});

const oversized = fc.tuple(resource, freshName, fc.constantFrom('json', 'yaml', 'chunked'), fc.integer({ min: 1, max: 256 * 1024 })).map(([r, name, how, extra]) => {
  const obj = validObject(r, name, { annotations: { big: 'x'.repeat(3 * 1024 * 1024 + extra) } });
  if (how === 'yaml') return post(r, 'YAML past 3 MiB', yamlStringify(obj), tooLarge, yaml);
  const req = post(r, how === 'chunked' ? 'JSON past 3 MiB, chunked' : 'JSON past 3 MiB', JSON.stringify(obj), tooLarge);
  return how === 'chunked' ? Object.assign(req, { chunked: true }) : req;
});

/** YAML, Protobuf and oversized create requests. */
export const encodingRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { weight: 2, arbitrary: yamlValid },
  { weight: 3, arbitrary: yamlHostile },
  { weight: 4, arbitrary: protobufCases },
  { weight: 1, arbitrary: oversized },
);

/** YAML as kube reads it (1.1): strings such as yes and on come out quoted. */
function yamlStringify(value: unknown): string {
  return stringify(value, { version: '1.1' });
}
