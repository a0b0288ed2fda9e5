/**
 * Writes to existing objects for the body fuzzer: patches of every type (JSON patch with invalid
 * ops, bad paths, failing tests and 10,001 operations; merge patches that are not objects or nest
 * deep; strategic merge patches with bad $patch, $setElementOrder, $retainKeys and
 * $deleteFromPrimitiveList directives; server-side apply without a fieldManager, with bad YAML,
 * with managedFields, forced or conflicting), full-object updates, and deletes with hostile
 * DeleteOptions bodies, all against the seeded objects.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { nested } from './fuzz-bodies-gen-create.js';
import { freshName, hostileString } from './fuzz-bodies-gen-meta.js';
import { fuzzRequest, type Expectation, type FuzzRequest } from './fuzz-bodies-oracle.js';
import { fuzzResources, isLabelValue, validObject, type FuzzResource } from './fuzz-bodies-resources.js';

const ok: Expectation = { kind: 'ok' };
const either: Expectation = { kind: 'either' };
const anyFailure: Expectation = { kind: 'fail' };
const badRequest: Expectation = { kind: 'fail', code: 400, reason: 'BadRequest' };
const invalid: Expectation = { kind: 'fail', code: 422, reason: 'Invalid' };

/** The request's target: one seeded object. */
const seed = fc.constantFrom(...fuzzResources).chain((r) => fc.constantFrom(...r.seeds).map((name) => ({ r, name })));

function write(r: FuzzResource, name: string, method: 'PATCH' | 'PUT' | 'DELETE', contentType: string, label: string, body: string, expect: Expectation, query = '', dryRun = false): FuzzRequest {
  return fuzzRequest({ label, method, path: `${r.path}/${name}${query}`, contentType, body: Buffer.from(body), expect, keyPrefix: r.keyPrefix, name, dryRun });
}

const labelPatch = fc.oneof(fc.constantFrom('v1', 'x', ''), hostileString);

const jsonPatch = fc.tuple(seed, labelPatch, fc.constantFrom('label', 'bad-op', 'bad-path', 'test-fails', 'test-ok', 'too-many', 'many', 'not-list', 'name', 'remove-missing', 'copy-self')).map(([{ r, name }, v, how]) => {
  const p = (ops: unknown, expect: Expectation, what: string = how): FuzzRequest => write(r, name, 'PATCH', 'application/json-patch+json', `JSON patch (${what})`, JSON.stringify(ops), expect);
  switch (how) {
    case 'label':
      // Earlier patches may have removed the labels map (the add then fails): only an invalid value is sure.
      return p([{ op: 'add', path: '/metadata/labels/fz', value: v }], isLabelValue(v) ? either : { kind: 'fail', code: 422 }, `label ${JSON.stringify(v)}`);
    case 'bad-op':
      return p([{ op: 'frobnicate', path: '/metadata/labels/fz', value: 'x' }], { kind: 'fail', code: 422 });
    case 'bad-path':
      return p([{ op: 'replace', path: `/metadata/nope/${v}`, value: 'x' }], { kind: 'fail', code: 422 });
    case 'test-fails':
      return p([{ op: 'test', path: '/metadata/labels/seed', value: 'no' }, { op: 'add', path: '/metadata/labels/fz', value: 'x' }], { kind: 'fail', code: 422 });
    case 'test-ok':
      return p([{ op: 'test', path: '/metadata/labels/seed', value: 'yes' }, { op: 'add', path: '/metadata/labels/fz', value: 't' }], either);
    case 'too-many':
      return p(Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/metadata/name', value: name })), { kind: 'fail', code: 413, reason: 'RequestEntityTooLarge', message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001' });
    case 'many':
      // Earlier patches may have removed the labels map, and an add under a missing map is kube's
      // generic 422 ("doc is missing path"): the first op puts the map back (add replaces a key).
      return p([{ op: 'add', path: '/metadata/labels', value: { seed: 'yes' } }, ...Array.from({ length: 5_000 }, (_, i) => ({ op: 'add', path: '/metadata/labels/fz', value: `v${i}` }))], ok);
    case 'not-list':
      return p({ op: 'add', path: '/metadata/labels/fz', value: 'x' }, badRequest);
    case 'name':
      return p([{ op: 'replace', path: '/metadata/name', value: 'other-name' }], anyFailure);
    case 'remove-missing':
      return p([{ op: 'remove', path: '/metadata/labels/absent-label' }], { kind: 'fail', code: 422 });
    default:
      return p([{ op: 'copy', from: '/metadata', path: '/metadata/annotations/x' }], anyFailure);
  }
});

const mergePatch = fc.tuple(seed, labelPatch, fc.constantFrom('label', 'array', 'number', 'null', 'string', 'deep-unknown', 'deep-annotations', 'metadata-null', 'empty', 'labels-null')).map(([{ r, name }, v, how]) => {
  const p = (body: string, expect: Expectation, what: string = how): FuzzRequest => write(r, name, 'PATCH', 'application/merge-patch+json', `merge patch (${what})`, body, expect);
  switch (how) {
    case 'label':
      return p(JSON.stringify({ metadata: { labels: { fz: v } } }), isLabelValue(v) ? ok : invalid, `label ${JSON.stringify(v)}`);
    case 'array':
      return p('[{"a":1}]', either);
    case 'number':
      return p('12', either);
    case 'null':
      return p('null', either);
    case 'string':
      return p('"x"', either);
    case 'deep-unknown':
      return p(`{"zz":${nested(9000, false)}}`, either);
    case 'deep-annotations':
      return p(`{"metadata":{"annotations":{"a":${nested(10_001, true)}}}}`, anyFailure);
    case 'metadata-null':
      return p('{"metadata":null}', either);
    case 'empty':
      return p('{}', ok);
    default:
      return p('{"metadata":{"labels":null}}', either);
  }
});

const smpBodies: readonly [string, string, Expectation][] = [
  ['$patch foo', '{"$patch":"foo"}', anyFailure],
  ['metadata $patch delete', '{"metadata":{"$patch":"delete"}}', either],
  ['labels $patch replace', '{"metadata":{"labels":{"$patch":"replace","seed":"yes","fz":"r"}}}', ok],
  ['$setElementOrder not a list', '{"spec":{"$setElementOrder/containers":"x"}}', anyFailure],
  ['$setElementOrder unknown element', '{"spec":{"$setElementOrder/containers":[{"name":"zz"}]}}', either],
  ['$retainKeys not a list', '{"spec":{"$retainKeys":"x"}}', anyFailure],
  ['$retainKeys of numbers', '{"spec":{"$retainKeys":[1,2]}}', anyFailure],
  // kube's mergeMap skips a delete list whose value is not a list like the field's (200): its
  // ErrBadPatchFormatForPrimitiveList is only for a key with no "/".
  ['$deleteFromPrimitiveList not a list', '{"metadata":{"$deleteFromPrimitiveList/finalizers":"x"}}', ok],
  ['$deleteFromPrimitiveList of absent', '{"metadata":{"$deleteFromPrimitiveList/finalizers":["a/b"]}}', either],
  ['container $patch delete', '{"spec":{"containers":[{"name":"c","$patch":"delete"}]}}', either],
  ['template containers $patch replace', '{"spec":{"template":{"spec":{"containers":[{"$patch":"replace"}]}}}}', either],
  // 10,000 levels in the labels (10,005 in the document: kube's decoder refuses it past 10,000).
  ['deep $patch', `{"spec":{"template":{"metadata":{"labels":${nested(10_000, false)}}}}}`, anyFailure],
  ['deep labels', `{"metadata":{"labels":{"x":${nested(9_000, false)}}}}`, anyFailure],
  ['containers not a list', '{"spec":{"containers":{"name":"c"}}}', anyFailure],
  ['env $patch merge with no key', '{"spec":{"containers":[{"name":"c","env":[{"$patch":"delete"}]}]}}', either],
];

// A patch naming a field the kind does not have meets kube's struct lookup error instead of the
// directive's (not what is tested here): only the kinds that have the fields get the expectation.
function fieldsExist(kind: string, body: string): boolean {
  if (!body.includes('"spec"')) return true;
  if (body.includes('"template"')) return kind === 'Deployment';
  return kind === 'Pod';
}

const strategic = fc.tuple(seed, fc.constantFrom(...smpBodies)).map(([{ r, name }, [what, body, expect]]) =>
  r.strategic
    ? // ConfigMaps and Secrets have no spec: kube's answer to directives there is its lookup error, not specified here.
      write(r, name, 'PATCH', 'application/strategic-merge-patch+json', `strategic merge patch (${what})`, body, fieldsExist(r.kind, body) ? expect : either)
    : write(r, name, 'PATCH', 'application/strategic-merge-patch+json', 'strategic merge patch of a custom resource', body, { kind: 'fail', code: 415, reason: 'UnsupportedMediaType' }),
);

const apply = fc.tuple(seed, fc.constantFrom('no-manager', 'valid', 'json', 'bad-yaml', 'managed-fields', 'force-merge', 'conflict', 'force', 'wrong-name', 'bomb')).map(([{ r, name }, how]) => {
  const obj = { apiVersion: r.apiVersion, kind: r.kind, metadata: { name, labels: { applied: 'yes' } } };
  const a = (body: string, expect: Expectation, query: string, type = 'application/apply-patch+yaml'): FuzzRequest => write(r, name, 'PATCH', type, `apply (${how})`, body, expect, query);
  switch (how) {
    case 'no-manager':
      return a(yamlStringify(obj), { kind: 'fail', code: 422, reason: 'Invalid', message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch' }, '');
    // Valid, but a rival's forced apply may own the label by now: 409 Conflict is then right.
    case 'valid':
      return a(yamlStringify(obj), either, '?fieldManager=fuzz');
    case 'json':
      return a(JSON.stringify(obj), either, '?fieldManager=fuzz-json');
    case 'bad-yaml':
      return a('metadata: [\n  name: x\n\t- ]', badRequest, '?fieldManager=fuzz');
    case 'managed-fields':
      return a(JSON.stringify({ ...obj, metadata: { ...obj.metadata, managedFields: [{ manager: 'x', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: {} }] } }), badRequest, '?fieldManager=fuzz');
    case 'force-merge':
      return a(JSON.stringify({ metadata: { labels: { fz: 'f' } } }), invalid, '?fieldManager=fuzz&force=true', 'application/merge-patch+json');
    case 'conflict':
      return a(JSON.stringify({ ...obj, metadata: { ...obj.metadata, labels: { applied: 'other' } } }), either, '?fieldManager=fuzz-rival');
    case 'force':
      return a(JSON.stringify({ ...obj, metadata: { ...obj.metadata, labels: { applied: 'forced' } } }), ok, '?fieldManager=fuzz-rival&force=true');
    case 'wrong-name':
      return a(JSON.stringify({ ...obj, metadata: { name: 'not-this-one' } }), anyFailure, '?fieldManager=fuzz');
    default:
      return a(`x: &a ["a","a","a","a","a","a","a","a","a","a"]\ny: &b [${'*a,'.repeat(9)}*a]\nz: &c [${'*b,'.repeat(9)}*b]\nw: &d [${'*c,'.repeat(9)}*c]\nv: &e [${'*d,'.repeat(9)}*d]\nu: [${'*e,'.repeat(9)}*e]\n${yamlStringify(obj)}`, badRequest, '?fieldManager=fuzz');
  }
});

const update = fc.tuple(seed, freshName, fc.constantFrom('valid', 'other-name', 'stale-rv', 'bad-rv', 'no-metadata', 'namespace')).map(([{ r, name }, other, how]) => {
  const obj = validObject(r, name, { labels: { seed: 'yes' } });
  const u = (body: unknown, expect: Expectation): FuzzRequest => write(r, name, 'PUT', 'application/json', `update (${how})`, JSON.stringify(body), expect);
  switch (how) {
    case 'valid':
      return u(obj, r.kind === 'Pod' ? either : ok);
    case 'other-name':
      return u(validObject(r, other), badRequest);
    case 'stale-rv':
      return u(validObject(r, name, { resourceVersion: '1' }), { kind: 'fail', code: 409, reason: 'Conflict' });
    case 'bad-rv':
      return u(validObject(r, name, { resourceVersion: 'not-a-number' }), anyFailure);
    case 'no-metadata': {
      const { metadata: _m, ...rest } = obj;
      return u(rest, either);
    }
    default:
      return u(validObject(r, name, { namespace: 'elsewhere' }), badRequest);
  }
});

const deleteOptions: readonly [string, unknown, Expectation, boolean][] = [
  ['uid precondition', { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-the-uid' } }, { kind: 'fail', code: 409, reason: 'Conflict' }, false],
  ['resourceVersion precondition', { preconditions: { resourceVersion: '1' } }, { kind: 'fail', code: 409, reason: 'Conflict' }, false],
  ['bad propagationPolicy', { propagationPolicy: 'Bogus' }, invalid, false],
  ['dry run', { dryRun: ['All'] }, ok, true],
  ['bad dryRun', { dryRun: ['Maybe'] }, anyFailure, false],
  ['orphan and policy', { orphanDependents: true, propagationPolicy: 'Foreground' }, invalid, false],
  ['wrong kind', { kind: 'ConfigMap', apiVersion: 'v1' }, badRequest, false],
  // kube's decoder refuses these bodies (400) and nothing is deleted.
  ['not an object', [1, 2], badRequest, false],
  ['gracePeriodSeconds string', { gracePeriodSeconds: 'soon' }, { kind: 'fail', code: 400, reason: 'BadRequest', message: 'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64' }, false],
];

const remove = fc.tuple(seed, fc.constantFrom(...deleteOptions), fc.boolean()).map(([{ r, name }, [what, body, expect, dryRun], truncate]) => {
  const text = JSON.stringify(body);
  return truncate
    ? write(r, name, 'DELETE', 'application/json', `delete, truncated options (${what})`, text.slice(0, -1), badRequest)
    : write(r, name, 'DELETE', 'application/json', `delete (${what})`, text, expect, '', dryRun);
});

/** Requests that write to the seeded objects. */
export const existingRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { weight: 4, arbitrary: jsonPatch },
  { weight: 3, arbitrary: mergePatch },
  { weight: 4, arbitrary: strategic },
  { weight: 4, arbitrary: apply },
  { weight: 3, arbitrary: update },
  { weight: 2, arbitrary: remove },
);

/** YAML as kube reads it (1.1): strings such as yes and on come out quoted. */
function yamlStringify(value: unknown): string {
  return stringify(value, { version: '1.1' });
}
