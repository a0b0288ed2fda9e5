/**
 * Keys that name JavaScript's own machinery ("__proto__", "constructor", "prototype") in user
 * data, for the body fuzzer: in ConfigMap data, labels, annotations and a custom resource's
 * preserved unknown fields (object-valued, nested), through create, merge patch, strategic merge
 * patch, JSON patch and apply. kube stores them as any other key, so every 2xx must read back what
 * was written (the request's readBack), and "__proto__" as a label or annotation key is 422 (not a
 * qualified name: it starts with "_").
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { freshName } from './fuzz-bodies-gen-meta.js';
import { fuzzRequest, type Expectation, type FuzzRequest, type ReadBack } from './fuzz-bodies-oracle.js';
import { fuzzResources, isQualifiedName, validObject, type FuzzResource } from './fuzz-bodies-resources.js';

const reservedKey = fc.constantFrom('__proto__', 'constructor', 'prototype');
const value = fc.constantFrom('v1', 'x', 'proto');
const byKind = (kind: string): FuzzResource => fuzzResources.find((r) => r.kind === kind)!;
const configMap = byKind('ConfigMap');
const widget = byKind('Widget');

/** An object with own keys, "__proto__" included (an object literal would set the prototype). */
function own(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
  return Object.fromEntries(entries);
}

/** Where the keys go, the body part that puts them there, and what must read back. */
interface Placement {
  readonly where: 'data' | 'labels' | 'annotations' | 'extra';
  readonly r: FuzzResource;
  readonly entries: ReadonlyArray<readonly [string, string]>;
  readonly nestedKey?: string;
}

const placement: fc.Arbitrary<Placement> = fc.oneof(
  fc.tuple(fc.uniqueArray(reservedKey, { minLength: 1, maxLength: 3 }), value).map(([keys, v]) => ({ where: 'data' as const, r: configMap, entries: keys.map((k) => [k, v] as const) })),
  fc.tuple(fc.constantFrom(...fuzzResources), fc.constantFrom('labels' as const, 'annotations' as const), fc.uniqueArray(reservedKey, { minLength: 1, maxLength: 3 }), value).map(([r, where, keys, v]) => ({
    where,
    r,
    entries: keys.map((k) => [k, v] as const),
  })),
  fc.tuple(fc.uniqueArray(reservedKey, { minLength: 1, maxLength: 3 }), reservedKey, value).map(([keys, nestedKey, v]) => ({
    where: 'extra' as const,
    r: widget,
    entries: keys.map((k) => [k, v] as const),
    nestedKey,
  })),
);

/** The keys as a body part: object-valued ({nestedKey: value}) in a widget's extra. */
function keysObject(p: Placement): Record<string, unknown> {
  return own(p.entries.map(([k, v]) => [k, p.nestedKey === undefined ? v : own([[p.nestedKey, v]])]));
}

/** The body fields that carry the keys (besides metadata.name). */
function carrying(p: Placement): { metadata: Record<string, unknown>; rest: Record<string, unknown> } {
  const keys = keysObject(p);
  if (p.where === 'labels' || p.where === 'annotations') return { metadata: { [p.where]: keys }, rest: {} };
  if (p.where === 'data') return { metadata: {}, rest: { data: keys } };
  return { metadata: {}, rest: { spec: { extra: keys } } };
}

function readBack(p: Placement): ReadBack[] {
  const base = p.where === 'data' ? ['data'] : p.where === 'extra' ? ['spec', 'extra'] : ['metadata', p.where];
  return p.entries.map(([k, v]) => ({ path: [...base, k, ...(p.nestedKey === undefined ? [] : [p.nestedKey])], value: v }));
}

/**
 * kube 1.33's refusal of a forced apply that leaves spec.extra null: this manager's earlier apply
 * owned extra's entries, another manager owns a field inside one of them (not the entry), so the
 * removal takes the entries whole and leaves the emptied map null (structured-merge-diff #305),
 * which the schema refuses. test/integration/custom-resources-apply.test.ts pins it.
 */
const extraLeftNull = { code: 422, reason: 'Invalid', message: /^Widget\.example\.com "[^"]+" is invalid: spec\.extra: Invalid value: "null": spec\.extra in body must be of type object: "null"$/ };

/**
 * kube refuses "__proto__" as a label or annotation key (not a qualified name); data and extra take
 * any of them. An apply to a widget that leaves out extra may meet extraLeftNull.
 */
function expectation(p: Placement, apply = false): Expectation {
  const meta = p.where === 'labels' || p.where === 'annotations';
  if (meta && p.entries.some(([k]) => !isQualifiedName(k))) return { kind: 'fail', code: 422, reason: 'Invalid' };
  return apply && p.r === widget && p.where !== 'extra' ? { kind: 'ok', unless: extraLeftNull } : { kind: 'ok' };
}

function request(p: Placement, method: 'POST' | 'PATCH', contentType: string, label: string, body: string, name?: string, query = ''): FuzzRequest {
  const path = name === undefined ? `${p.r.path}${query}` : `${p.r.path}/${name}${query}`;
  const keys = p.entries.map(([k]) => k).join(',');
  const apply = contentType === 'application/apply-patch+yaml';
  return fuzzRequest({ label: `${label}, ${keys} in ${p.where}`, method, path, contentType, body: Buffer.from(body), expect: expectation(p, apply), keyPrefix: p.r.keyPrefix, name, readBack: readBack(p) });
}

const create = fc.tuple(placement, freshName).map(([p, name]) => {
  const { metadata, rest } = carrying(p);
  const obj = validObject(p.r, name);
  const body: Record<string, unknown> = { ...obj, ...rest, metadata: { ...(obj.metadata as object), ...metadata } };
  if (p.where === 'extra') body.spec = { ...(obj.spec as object), extra: keysObject(p) };
  return request(p, 'POST', 'application/json', 'create with reserved keys', JSON.stringify(body));
});

const patch = fc.tuple(placement, fc.nat(), fc.constantFrom('merge', 'strategic', 'json', 'apply', 'apply-yaml')).map(([p, i, how]) => {
  const name = p.r.seeds[i % p.r.seeds.length] as string;
  const { metadata, rest } = carrying(p);
  const extraAt = p.where === 'extra' ? { spec: { extra: keysObject(p) } } : rest;
  switch (p.r.strategic || how !== 'strategic' ? how : 'merge') {
    case 'merge':
      return request(p, 'PATCH', 'application/merge-patch+json', 'merge patch', JSON.stringify({ metadata, ...extraAt }), name);
    case 'strategic':
      return request(p, 'PATCH', 'application/strategic-merge-patch+json', 'strategic merge patch', JSON.stringify({ metadata, ...extraAt }), name);
    case 'json': {
      // The container is put back first: an earlier patch may have removed it.
      const container = p.where === 'data' ? '/data' : p.where === 'extra' ? '/spec' : `/metadata/${p.where}`;
      const first = p.where === 'extra' ? { color: 'red', extra: {} } : p.where === 'data' ? { a: 'one' } : { seed: 'yes' };
      const inner = p.where === 'extra' ? '/spec/extra' : container;
      const ops = [{ op: 'add', path: container, value: first }, ...Object.entries(keysObject(p)).map(([k, v]) => ({ op: 'add', path: `${inner}/${k}`, value: v }))];
      return request(p, 'PATCH', 'application/json-patch+json', 'JSON patch', JSON.stringify(ops), name);
    }
    default: {
      const intent = { apiVersion: p.r.apiVersion, kind: p.r.kind, metadata: { name, ...metadata }, ...extraAt };
      const text = how === 'apply' ? JSON.stringify(intent) : stringify(intent, { version: '1.1' });
      return request(p, 'PATCH', 'application/apply-patch+yaml', how === 'apply' ? 'apply' : 'apply as YAML', text, name, '?fieldManager=fuzz-reserved&force=true');
    }
  }
});

/** Creates and patches carrying "__proto__", "constructor" and "prototype" keys, each with what must read back. */
export const reservedKeyRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(create, patch);
