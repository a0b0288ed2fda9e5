import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { ApiInstaller } from '../installer.js';
import type { RestStorage } from '../../registry/interface.js';
import type { ResourceRegistration } from '../../registry/registration.js';
import { encodeOpenApiV2Document } from './gnostic-v2.js';
import { OpenApiV2Handler } from './v2.js';
import { viewCrd } from '../../apiextensions/openapi/crd-view.js';
import { cronTabCrd } from '../../apiextensions/openapi/testdata.js';
import { buildCrdSwagger } from '../../apiextensions/openapi/v2-builder.js';

// A test-only protobuf wire reader: a message is its fields by number, each occurrence in order.
type Field = { wire: number; varint?: bigint; bytes?: Buffer; fixed64?: Buffer };
type Message = Map<number, Field[]>;

function readVarint(buf: Buffer, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    assert.ok(pos < buf.length, 'varint runs past the end');
    const b = buf[pos++] as number;
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [result, pos];
    shift += 7n;
  }
}

function decode(buf: Buffer): Message {
  const m: Message = new Map();
  let pos = 0;
  while (pos < buf.length) {
    const [key, p] = readVarint(buf, pos);
    pos = p;
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    let f: Field;
    if (wire === 0) {
      const [v, q] = readVarint(buf, pos);
      pos = q;
      f = { wire, varint: v };
    } else if (wire === 2) {
      const [len, q] = readVarint(buf, pos);
      const end = q + Number(len);
      assert.ok(end <= buf.length, `field ${field} runs past the end`);
      f = { wire, bytes: buf.subarray(q, end) };
      pos = end;
    } else if (wire === 1) {
      f = { wire, fixed64: buf.subarray(pos, pos + 8) };
      pos += 8;
    } else {
      assert.fail(`unexpected wire type ${wire} for field ${field}`);
    }
    assert.ok(field > 0, 'field number 0');
    m.set(field, [...(m.get(field) ?? []), f]);
  }
  return m;
}

const all = (m: Message, n: number): Field[] => m.get(n) ?? [];
const one = (m: Message, n: number): Field => {
  const fs = all(m, n);
  assert.equal(fs.length, 1, `field ${n} occurs ${fs.length} times`);
  return fs[0] as Field;
};
const sub = (m: Message, n: number): Message => decode(one(m, n).bytes as Buffer);
const subs = (m: Message, n: number): Message[] => all(m, n).map((f) => decode(f.bytes as Buffer));
const str = (m: Message, n: number): string | undefined => m.get(n)?.[0]?.bytes?.toString('utf8');
const strs = (m: Message, n: number): string[] => all(m, n).map((f) => (f.bytes as Buffer).toString('utf8'));
/** The value of the NamedX entry called name in repeated field n. */
const named = (m: Message, n: number, name: string): Message | undefined => {
  const entry = subs(m, n).find((e) => str(e, 1) === name);
  return entry ? sub(entry, 2) : undefined;
};
/** The undecoded value bytes of the NamedX entry called name in repeated field n. */
const namedBytes = (m: Message, n: number, name: string): Buffer => {
  const entry = subs(m, n).find((e) => str(e, 1) === name);
  assert.ok(entry, `no entry ${name}`);
  return one(entry, 2).bytes as Buffer;
};
/** The parsed YAML of vendor extension name in repeated NamedAny field n. */
const extension = (m: Message, n: number, name: string): unknown => {
  const any = named(m, n, name);
  assert.ok(any, `no extension ${name}`);
  return parseYaml(str(any, 2) as string);
};

/** Field order must ascend within every message, as Go's proto.Marshal writes it. */
function assertAscending(buf: Buffer): void {
  let pos = 0;
  let last = 0;
  while (pos < buf.length) {
    const [key, p] = readVarint(buf, pos);
    const field = Number(key >> 3n);
    assert.ok(field >= last, `field ${field} after ${last}`);
    last = field;
    const wire = Number(key & 7n);
    if (wire === 0) pos = readVarint(buf, p)[1];
    else if (wire === 1) pos = p + 8;
    else {
      const [len, q] = readVarint(buf, p);
      pos = q + Number(len);
    }
  }
}

const fullStorage: RestStorage = {
  get: async () => ({}) as never,
  list: async () => ({}) as never,
  watch: async () => ({}) as never,
  create: async () => ({}) as never,
  update: async () => ({}) as never,
  delete: async () => ({}) as never,
  deleteCollection: async () => [],
};

function registration(group: string, version: string, resource: string, namespaced: boolean): ResourceRegistration {
  return { group, version, resource, namespaced, main: fullStorage, subresources: {}, selectableFields: { extra: [], style: 'meta' } };
}

describe('gnostic OpenAPI v2 encoding of the served document', () => {
  const handler = new OpenApiV2Handler(new ApiInstaller([registration('', 'v1', 'configmaps', true), registration('apps', 'v1', 'deployments', true)]));
  const docBytes = handler.protobufBytes;
  const doc = decode(docBytes);
  const paths = sub(doc, 8);
  const configMapItem = named(paths, 2, '/api/v1/namespaces/{namespace}/configmaps/{name}');

  it('writes the document header fields', () => {
    assert.equal(str(doc, 1), '2.0');
    const info = sub(doc, 2);
    assert.equal(str(info, 1), 'Kubernetes');
    assert.equal(str(info, 2), 'unversioned');
    // security: [{BearerToken: []}] and securityDefinitions.BearerToken as ApiKeySecurity.
    const security = subs(doc, 12);
    assert.equal(security.length, 1);
    assert.equal(str(sub(security[0] as Message, 1), 1), 'BearerToken');
    const bearer = named(sub(doc, 13), 1, 'BearerToken');
    assert.ok(bearer);
    const apiKey = sub(bearer, 2);
    assert.deepEqual([str(apiKey, 1), str(apiKey, 2), str(apiKey, 3)], ['apiKey', 'authorization', 'header']);
  });

  it('lists the served paths in document order', () => {
    const names = subs(paths, 2).map((p) => str(p, 1) as string);
    assert.ok(names.includes('/api/v1/namespaces/{namespace}/configmaps/{name}'));
    assert.ok(names.includes('/apis/apps/v1/namespaces/{namespace}/deployments/{name}'));
    assert.ok(!names.includes('/api/v1/namespaces/{namespace}/secrets/{name}'));
    assert.deepEqual(names, [...names].sort());
  });

  it('gives the configmaps PATCH operation the fieldValidation query parameter and its group-version-kind', () => {
    assert.ok(configMapItem, 'configmaps item path missing');
    const patch = sub(configMapItem, 8);
    assert.equal(str(patch, 5), 'patchCoreV1NamespacedConfigMap');
    assert.deepEqual(extension(patch, 13, 'x-kubernetes-group-version-kind'), { group: '', kind: 'ConfigMap', version: 'v1' });
    assert.equal(extension(patch, 13, 'x-kubernetes-action'), 'patch');
    const queryNames = subs(patch, 8)
      .filter((item) => item.has(1))
      .map((item) => sub(sub(item, 1), 2)) // Parameter.non_body_parameter
      .filter((nb) => nb.has(3)) // NonBodyParameter.query_parameter_sub_schema
      .map((nb) => sub(nb, 3));
    const fieldValidation = queryNames.find((q) => str(q, 4) === 'fieldValidation');
    assert.ok(fieldValidation, 'no fieldValidation query parameter');
    assert.equal(str(fieldValidation, 2), 'query');
    assert.equal(str(fieldValidation, 6), 'string');
    assert.equal(one(fieldValidation, 20).varint, 1n); // uniqueItems
  });

  it('writes $ref parameters as JsonReference and resolves them in the document parameters', () => {
    assert.ok(configMapItem);
    const patch = sub(configMapItem, 8);
    const refs = subs(patch, 8)
      .filter((item) => item.has(2))
      .map((item) => str(sub(item, 2), 1) as string);
    assert.ok(refs.includes('#/parameters/body-78PwaGsr'), refs.join(','));
    const body = named(sub(doc, 10), 1, 'body-78PwaGsr');
    assert.ok(body, 'parameter definition missing');
    const bodyParameter = sub(body, 1);
    assert.equal(str(bodyParameter, 2), 'body');
    assert.equal(str(bodyParameter, 3), 'body');
    assert.equal(one(bodyParameter, 4).varint, 1n);
    assert.equal(str(sub(bodyParameter, 5), 1), '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch');
    // Path-level parameters: {name} is a path parameter (NonBodyParameter member 4), required.
    const pathParams = subs(configMapItem, 9).filter((i) => i.has(1)).map((i) => sub(sub(i, 1), 2));
    const name = pathParams.find((nb) => nb.has(4));
    assert.ok(name);
    assert.equal(str(sub(name, 4), 4), 'name');
    assert.equal(one(sub(name, 4), 1).varint, 1n);
  });

  it('gives every response a description and its schema', () => {
    assert.ok(configMapItem);
    const responses = sub(sub(configMapItem, 8), 9);
    const codes = subs(responses, 1).map((r) => str(r, 1));
    assert.deepEqual(codes, ['200', '201', '401']);
    const ok = sub(named(responses, 1, '200') as Message, 1);
    assert.equal(str(ok, 1), 'OK');
    assert.equal(str(sub(sub(ok, 2), 1), 1), '#/definitions/io.k8s.api.core.v1.ConfigMap');
    assert.equal(str(sub(named(responses, 1, '401') as Message, 1), 1), 'Unauthorized');
  });

  it('encodes definitions: types, properties, additionalProperties, items and vendor extensions', () => {
    const definitions = sub(doc, 9);
    const configMap = named(definitions, 1, 'io.k8s.api.core.v1.ConfigMap');
    assert.ok(configMap);
    assert.deepEqual(strs(sub(configMap, 22), 1), ['object']);
    assert.deepEqual(extension(configMap, 31, 'x-kubernetes-group-version-kind'), [{ group: '', kind: 'ConfigMap', version: 'v1' }]);
    const props = sub(configMap, 25);
    const data = named(props, 1, 'data');
    assert.ok(data);
    assert.deepEqual(strs(sub(data, 22), 1), ['object']);
    assert.deepEqual(strs(sub(sub(sub(data, 21), 1), 22), 1), ['string']);
    assert.equal(str(named(props, 1, 'metadata') as Message, 1), '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    const containers = named(sub(named(definitions, 1, 'io.k8s.api.core.v1.PodSpec') as Message, 25), 1, 'containers');
    assert.ok(containers);
    assert.equal(str(sub(sub(containers, 23), 1), 1), '#/definitions/io.k8s.api.core.v1.Container');
    assert.equal(extension(containers, 31, 'x-kubernetes-patch-merge-key'), 'name');
    assert.ok(!named(definitions, 1, 'io.k8s.api.core.v1.Secret'), 'unserved definition encoded');
  });

  it('writes fields in ascending order (document, operation, schema)', () => {
    assertAscending(docBytes);
    const itemBytes = namedBytes(paths, 2, '/api/v1/namespaces/{namespace}/configmaps/{name}');
    assertAscending(itemBytes);
    assertAscending(one(decode(itemBytes), 8).bytes as Buffer);
    assertAscending(namedBytes(sub(doc, 9), 1, 'io.k8s.api.core.v1.ConfigMap'));
  });
});

describe('encodeOpenApiV2Document', () => {
  it('produces exact bytes for a minimal document', () => {
    const bytes = encodeOpenApiV2Document({ swagger: '2.0', info: { title: 'T', version: 'v' } });
    assert.deepEqual([...bytes], [0x0a, 3, ...Buffer.from('2.0'), 0x12, 6, 0x0a, 1, 0x54, 0x12, 1, 0x76]);
  });

  it('covers the schema keywords kube documents may use', () => {
    const bytes = encodeOpenApiV2Document({
      swagger: '2.0',
      definitions: {
        A: {
          type: 'object',
          description: 'an A',
          required: ['x'],
          default: { x: 'no' },
          additionalProperties: false,
          properties: {
            x: { type: 'string', enum: ['on', 'off'], maxLength: 10, minLength: -1, pattern: '^a' },
            n: { type: 'number', minimum: 0.5, maximum: 2, exclusiveMaximum: true, multipleOf: 0.25 },
            list: { type: 'array', items: [{ type: 'string' }, { type: 'integer', format: 'int32' }], uniqueItems: true },
            both: { allOf: [{ $ref: '#/definitions/B' }, { readOnly: true }], 'x-kubernetes-int-or-string': true },
          },
        },
      },
    });
    const a = named(sub(decode(bytes), 9), 1, 'A');
    assert.ok(a);
    assert.equal(str(a, 4), 'an A');
    assert.deepEqual(parseYaml(str(sub(a, 5), 2) as string), { x: 'no' });
    // "no" must stay a string for YAML 1.1 readers (Go's yaml.v2).
    assert.match(str(sub(a, 5), 2) as string, /"no"/);
    assert.deepEqual(strs(a, 19), ['x']);
    // additionalProperties: false is the oneof's boolean member, written even at its zero value.
    const ap = sub(a, 21);
    assert.equal(one(ap, 2).varint, 0n);
    const props = sub(a, 25);
    const x = named(props, 1, 'x') as Message;
    assert.deepEqual(subs(x, 20).map((e) => parseYaml(str(e, 2) as string)), ['on', 'off']);
    assert.equal(one(x, 11).varint, 10n);
    assert.equal(one(x, 12).varint, (1n << 64n) - 1n); // int64 -1 as a ten-byte varint
    assert.equal(str(x, 13), '^a');
    const n = named(props, 1, 'n') as Message;
    assert.equal((one(n, 9).fixed64 as Buffer).readDoubleLE(), 0.5);
    assert.equal((one(n, 7).fixed64 as Buffer).readDoubleLE(), 2);
    assert.equal(one(n, 8).varint, 1n);
    assert.equal((one(n, 6).fixed64 as Buffer).readDoubleLE(), 0.25);
    const list = named(props, 1, 'list') as Message;
    const items = subs(sub(list, 23), 1);
    assert.deepEqual(items.map((i) => strs(sub(i, 22), 1)[0]), ['string', 'integer']);
    assert.equal(str(items[1] as Message, 2), 'int32');
    assert.equal(one(list, 16).varint, 1n);
    const both = named(props, 1, 'both') as Message;
    const allOf = subs(both, 24);
    assert.equal(str(allOf[0] as Message, 1), '#/definitions/B');
    assert.equal(one(allOf[1] as Message, 27).varint, 1n);
    assert.equal(extension(both, 31, 'x-kubernetes-int-or-string'), true);
  });

  it('chooses parameter and security oneof members by "in" and "type"', () => {
    const bytes = encodeOpenApiV2Document({
      paths: {
        'x-paths-ext': 1,
        '/p/{id}': {
          parameters: [{ name: 'id', in: 'path', required: true, type: 'string' }],
          post: {
            parameters: [
              { name: 'h', in: 'header', type: 'integer', default: 3 },
              { name: 'f', in: 'formData', type: 'array', items: { type: 'string' }, collectionFormat: 'csv', allowEmptyValue: true },
              { name: 'b', in: 'body', schema: { type: 'object' } },
            ],
            responses: { default: { $ref: '#/responses/Err' }, '204': { description: 'none', headers: { 'X-Rate': { type: 'integer' } } } },
            deprecated: true,
          },
        },
      },
      securityDefinitions: { basic: { type: 'basic' }, oauth: { type: 'oauth2', flow: 'accessCode', authorizationUrl: 'https://a', tokenUrl: 'https://t', scopes: { read: 'Read' } } },
    });
    const d = decode(bytes);
    const paths = sub(d, 8);
    assert.equal(str(decode(one(paths, 1).bytes as Buffer), 1), 'x-paths-ext');
    const item = named(paths, 2, '/p/{id}') as Message;
    const pathParam = sub(sub(sub(subs(item, 9)[0] as Message, 1), 2), 4);
    assert.equal(str(pathParam, 4), 'id');
    const post = sub(item, 4);
    const [h, f, b] = subs(post, 8).map((p) => sub(p, 1));
    const header = sub(sub(h as Message, 2), 1);
    assert.equal(str(header, 5), 'integer'); // header sub-schema: type = 5
    assert.equal(parseYaml(str(sub(header, 9), 2) as string), 3); // default = 9
    const form = sub(sub(f as Message, 2), 2);
    assert.equal(one(form, 5).varint, 1n); // allow_empty_value = 5
    assert.equal(str(form, 6), 'array');
    assert.equal(str(sub(form, 8), 1), 'string'); // items: PrimitivesItems
    assert.equal(str(form, 9), 'csv');
    assert.equal(str(sub(sub(b as Message, 1), 5), 1), undefined);
    assert.deepEqual(strs(sub(sub(sub(b as Message, 1), 5), 22), 1), ['object']);
    assert.equal(one(post, 11).varint, 1n);
    const responses = sub(post, 9);
    assert.deepEqual(subs(responses, 1).map((r) => str(r, 1)), ['204', 'default']);
    assert.equal(str(sub(named(responses, 1, 'default') as Message, 2), 1), '#/responses/Err');
    const noContent = sub(named(responses, 1, '204') as Message, 1);
    assert.equal(str(noContent, 1), 'none');
    assert.equal(str(named(sub(noContent, 3), 1, 'X-Rate') as Message, 1), 'integer');
    const sd = sub(d, 13);
    assert.ok((named(sd, 1, 'basic') as Message).has(1));
    const oauth = sub(named(sd, 1, 'oauth') as Message, 6);
    assert.deepEqual([str(oauth, 1), str(oauth, 2), str(oauth, 4), str(oauth, 5)], ['oauth2', 'accessCode', 'https://a', 'https://t']);
    const scopes = subs(sub(oauth, 3), 1).map((e) => [str(e, 1), str(e, 2)]);
    assert.deepEqual(scopes, [['read', 'Read']]);
  });
});

describe('gnostic OpenAPI v2 encoding of CRD definitions', () => {
  it('carries a CRD fragment: kind schema with descriptions, extensions and its paths', () => {
    const handler = new OpenApiV2Handler(new ApiInstaller([registration('', 'v1', 'configmaps', true)]));
    handler.setFragment('customresourcedefinition/crontabs.stable.example.com', buildCrdSwagger(viewCrd(cronTabCrd())));
    const bytes = handler.protobufBytes;
    assertAscending(bytes);
    const doc = decode(bytes);
    const kind = named(sub(doc, 9), 1, 'com.example.stable.v1.CronTab');
    assert.ok(kind, 'kind definition missing');
    assert.equal(str(kind, 4), 'CronTab runs a command on a schedule.');
    assert.deepEqual(extension(kind, 31, 'x-kubernetes-group-version-kind'), [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
    const spec = named(sub(kind, 25), 1, 'spec');
    assert.ok(spec);
    assert.deepEqual(strs(spec, 19), ['cronSpec']);
    assert.deepEqual(extension(spec, 31, 'x-kubernetes-validations'), [{ message: 'too many', rule: 'self.replicas <= 10' }]);
    const port = named(sub(spec, 25), 1, 'port');
    assert.ok(port);
    assert.equal(extension(port, 31, 'x-kubernetes-int-or-string'), true);
    const metadata = named(sub(kind, 25), 1, 'metadata');
    assert.equal(str(metadata as Message, 1), '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    const paths = subs(sub(doc, 8), 2).map((e) => str(e, 1));
    assert.ok(paths.includes('/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/status'));
  });
});

describe('gnostic encoding cache', () => {
  it('gives the same bytes as an uncached encoding and re-encodes only new entries', () => {
    const shared = { get: { operationId: 'a', responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/A' } } } } };
    const def = { type: 'object', description: 'A', properties: { x: { type: 'string', 'x-kubernetes-list-type': 'atomic' } } };
    const doc = { swagger: '2.0', paths: { '/a': shared }, definitions: { A: def } };
    const cache = new WeakMap<object, Buffer>();
    const first = encodeOpenApiV2Document(doc, cache);
    assert.ok(first.equals(encodeOpenApiV2Document(doc)));
    assert.ok(cache.has(shared) && cache.has(def));
    const encodedShared = cache.get(shared);
    const grown = { ...doc, paths: { ...doc.paths, '/b': { get: { operationId: 'b' } } } };
    assert.ok(encodeOpenApiV2Document(grown, cache).equals(encodeOpenApiV2Document(grown)));
    assert.equal(cache.get(shared), encodedShared, 'an unchanged path item is not encoded again');
  });
});
