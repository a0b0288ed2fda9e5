/**
 * Each special type and wire rule on its own: Time, MicroTime, Duration, Quantity, IntOrString,
 * RawExtension, FieldsV1, bytes, map<string,bytes>, int64 beyond 2^53, unpacked repeated scalars,
 * the JSONSchemaPropsOr* unions, named string slices, embedded structs, presence rules.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeObject, encodeObject, jsonToProtobuf, ProtobufError, protobufToJson, type JsonObject } from './codec.js';
import { decodeWatchEvent, encodeWatchEvent } from './watch-event.js';

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const roundTrip = (obj: JsonObject) => decodeObject(encodeObject(obj));

test('Time: RFC 3339 seconds <-> {seconds, nanos 0}; null <-> empty message', () => {
  const bytes = jsonToProtobuf(`${META}.Time`, '2024-01-02T03:04:05Z');
  assert.equal(hex(bytes), '08a5facdac06' + '1000');
  assert.equal(protobufToJson(`${META}.Time`, bytes), '2024-01-02T03:04:05Z');
  // Fractions and offsets: kube keeps whole seconds, prints UTC.
  assert.equal(protobufToJson(`${META}.Time`, jsonToProtobuf(`${META}.Time`, '2024-01-02T05:04:05.9+02:00')), '2024-01-02T03:04:05Z');
  assert.equal(hex(jsonToProtobuf(`${META}.Time`, null)), '');
  assert.equal(protobufToJson(`${META}.Time`, new Uint8Array(0)), null);
  // Go's zero time written explicitly is still the zero time: null.
  assert.equal(protobufToJson(`${META}.Time`, jsonToProtobuf(`${META}.Time`, '0001-01-01T00:00:00Z')), null);
  assert.throws(() => jsonToProtobuf(`${META}.Time`, 'yesterday'), ProtobufError);
});

test('MicroTime keeps microseconds', () => {
  const bytes = jsonToProtobuf(`${META}.MicroTime`, '2024-01-02T03:04:05.123456Z');
  assert.equal(hex(bytes), '08a5facdac06' + '108094ef3a'); // nanos 123456000
  assert.equal(protobufToJson(`${META}.MicroTime`, bytes), '2024-01-02T03:04:05.123456Z');
  const lease = { kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', metadata: { name: 'l', creationTimestamp: null }, spec: { renewTime: '2024-01-02T03:04:05.000001Z' } };
  assert.deepStrictEqual(roundTrip(lease), lease);
});

test('Duration: Go duration string <-> int64 nanoseconds', () => {
  const bytes = jsonToProtobuf(`${META}.Duration`, '1m30s');
  assert.equal(hex(bytes), '088088aca3cf02'); // 90e9
  assert.equal(protobufToJson(`${META}.Duration`, bytes), '1m30s');
  assert.equal(protobufToJson(`${META}.Duration`, jsonToProtobuf(`${META}.Duration`, '0.5s')), '500ms');
});

test('Quantity: string field 1, always written', () => {
  const q = 'k8s.io.apimachinery.pkg.api.resource.Quantity';
  assert.equal(hex(jsonToProtobuf(q, '250m')), '0a04' + Buffer.from('250m').toString('hex'));
  assert.equal(protobufToJson(q, jsonToProtobuf(q, '1Gi')), '1Gi');
  assert.equal(hex(jsonToProtobuf(q, null)), '0a0130'); // the zero Quantity is "0"
  assert.equal(protobufToJson(q, new Uint8Array(0)), '0');
  const quota = { kind: 'ResourceQuota', apiVersion: 'v1', metadata: { name: 'q', creationTimestamp: null }, spec: { hard: { pods: '10', 'requests.cpu': '500m' } }, status: {} };
  assert.deepStrictEqual(roundTrip(quota), quota);
});

test('IntOrString: {type, intVal, strVal} all written <-> number or string', () => {
  const t = 'k8s.io.apimachinery.pkg.util.intstr.IntOrString';
  assert.equal(hex(jsonToProtobuf(t, 8080)), '0800' + '10903f' + '1a00');
  assert.equal(hex(jsonToProtobuf(t, '25%')), '0801' + '1000' + '1a03' + Buffer.from('25%').toString('hex'));
  assert.equal(protobufToJson(t, jsonToProtobuf(t, 8080)), 8080);
  assert.equal(protobufToJson(t, jsonToProtobuf(t, '25%')), '25%');
  assert.equal(protobufToJson(t, jsonToProtobuf(t, 0)), 0);
  assert.throws(() => jsonToProtobuf(t, true), ProtobufError);
});

test('RawExtension holds JSON bytes; a nested k8s envelope decodes as an object', () => {
  const rev = { kind: 'ControllerRevision', apiVersion: 'apps/v1', metadata: { name: 'r', creationTimestamp: null }, data: { spec: { template: { x: [1, 2] } } }, revision: 3 };
  const bytes = encodeObject(rev);
  assert.ok(Buffer.from(bytes).includes(Buffer.from('{"spec":{"template":{"x":[1,2]}}}')));
  assert.deepStrictEqual(decodeObject(bytes), rev);
  // data null: Raw nil, and kube's JSON shows data: null (non-pointer RawExtension).
  const empty = decodeObject(encodeObject({ ...rev, data: null }));
  assert.equal(empty['data'], null);
});

test('watch events: object embedded as a nested protobuf envelope', () => {
  const pod = { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p', namespace: 'default', creationTimestamp: '2024-01-02T03:04:05Z' }, spec: { containers: [{ name: 'c', image: 'nginx', resources: {} }] }, status: {} };
  const bytes = encodeWatchEvent({ type: 'ADDED', object: pod });
  assert.equal(hex(bytes.subarray(0, 7)), '0a05' + Buffer.from('ADDED').toString('hex'));
  assert.ok(Buffer.from(bytes).includes(Buffer.from([0x6b, 0x38, 0x73, 0x00])));
  const event = decodeWatchEvent(bytes);
  assert.equal(event.type, 'ADDED');
  assert.deepStrictEqual(event.object, decodeObject(encodeObject(pod)));
  // A JSON-embedded object (as kube writes RawExtensions elsewhere) decodes too.
  const jsonEvent = jsonToProtobuf(`${META}.WatchEvent`, { type: 'DELETED', object: { kind: 'ConfigMap', apiVersion: 'v1' } });
  assert.deepStrictEqual(decodeWatchEvent(jsonEvent), { type: 'DELETED', object: { kind: 'ConfigMap', apiVersion: 'v1' } });
});

test('FieldsV1 in managedFields round-trips as JSON', () => {
  const fieldsV1 = { 'f:data': { '.': {}, 'f:key': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } };
  const cm = {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: {
      name: 'c',
      creationTimestamp: '2024-01-02T03:04:05Z',
      managedFields: [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: '2024-01-02T03:04:05Z', fieldsType: 'FieldsV1', fieldsV1 }],
    },
    data: { key: 'v' },
  };
  assert.deepStrictEqual(roundTrip(cm), cm);
});

test('bytes fields and map<string,bytes> are base64 in JSON; bad base64 is rejected', () => {
  const secret = { kind: 'Secret', apiVersion: 'v1', metadata: { name: 's', creationTimestamp: null }, data: { empty: '', pw: Buffer.from('hunter2').toString('base64') }, type: 'Opaque' };
  const bytes = encodeObject(secret);
  assert.ok(Buffer.from(bytes).includes(Buffer.from('hunter2')));
  assert.deepStrictEqual(decodeObject(bytes), secret);
  assert.throws(() => encodeObject({ ...secret, data: { pw: 'not base64!' } }), (e: unknown) => e instanceof ProtobufError && e.code === 'InvalidValue' && /data\["pw"\]/.test(e.message));
  const csr = { kind: 'CertificateSigningRequest', apiVersion: 'certificates.k8s.io/v1', metadata: { name: 'c', creationTimestamp: null }, spec: { request: 'LS0tLS1CRUdJTg==', signerName: 'x', usages: ['digital signature'] }, status: {} };
  assert.deepStrictEqual(roundTrip(csr), csr);
});

test('int64 beyond 2^53 stays exact (bigint or decimal string in, bigint out on request)', () => {
  const big = 9007199254740993n; // 2^53 + 1
  const cm = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', generation: big, creationTimestamp: null } };
  const bytes = encodeObject(cm);
  assert.deepStrictEqual(decodeObject(bytes, { bigints: true }), cm);
  assert.equal((decodeObject(bytes)['metadata'] as JsonObject)['generation'], Number(big)); // default: nearest number
  assert.deepStrictEqual(Buffer.from(encodeObject({ ...cm, metadata: { ...cm.metadata, generation: '9007199254740993' } })), Buffer.from(bytes));
  const negative = { ...cm, metadata: { ...cm.metadata, generation: -(2n ** 63n) } };
  assert.deepStrictEqual(decodeObject(encodeObject(negative), { bigints: true }), negative);
  assert.throws(() => encodeObject({ ...cm, metadata: { ...cm.metadata, generation: 2n ** 63n } }), ProtobufError);
  assert.throws(() => encodeObject({ ...cm, metadata: { ...cm.metadata, generation: 1.5 } }), ProtobufError);
});

test('repeated scalars are written unpacked (one tag each), packed input is accepted', () => {
  const opts = `k8s.io.api.core.v1.PodPortForwardOptions`;
  assert.equal(hex(jsonToProtobuf(opts, { ports: [80, 443] })), '0850' + '08bb03');
  assert.deepStrictEqual(protobufToJson(opts, Uint8Array.of(0x0a, 0x03, 0x50, 0xbb, 0x03)), { ports: [80, 443] });
});

test('maps are written in sorted key order (code point order) and read back sorted', () => {
  const cm = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', creationTimestamp: null, labels: { 'é': '3', b: '2', a: '1', '\u{1F600}': '5', '\uFFFD': '4' } } };
  const decoded = decodeObject(encodeObject(cm));
  assert.deepStrictEqual(Object.keys((decoded['metadata'] as JsonObject)['labels'] as JsonObject), ['a', 'b', 'é', '\uFFFD', '\u{1F600}']);
});

test('embedded Go structs are inlined in JSON (ConfigMapEnvSource.localObjectReference, Volume.volumeSource, Probe.handler)', () => {
  const pod = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: 'p', creationTimestamp: null },
    spec: {
      volumes: [{ name: 'v', configMap: { name: 'cm', defaultMode: 420 } }],
      containers: [
        {
          name: 'c',
          image: 'busybox',
          envFrom: [{ configMapRef: { name: 'cm', optional: false } }],
          readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 5 },
          resources: {},
        },
      ],
    },
    status: {},
  };
  const decoded = decodeObject(encodeObject(pod));
  assert.deepStrictEqual(decoded, pod);
  // The embedded message is a real nested message on the wire: ConfigMapEnvSource {1: {1: "cm"}, 2: false}
  const env = jsonToProtobuf('k8s.io.api.core.v1.ConfigMapEnvSource', { name: 'cm', optional: false });
  assert.equal(hex(env), '0a04' + '0a02636d' + '1000');
});

test('JSONSchemaPropsOrBool / OrArray / OrStringArray and JSON values in a CRD', () => {
  const crd = {
    kind: 'CustomResourceDefinition',
    apiVersion: 'apiextensions.k8s.io/v1',
    metadata: { name: 'widgets.example.com', creationTimestamp: null },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', kind: 'Widget' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              additionalProperties: false,
              properties: {
                spec: { type: 'object', additionalProperties: { type: 'string' }, default: { size: 3 }, 'x-kubernetes-preserve-unknown-fields': true },
                tags: { type: 'array', items: { type: 'string' } },
                tuple: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
                mode: { type: 'string', enum: ['a', 'b', null] },
              },
              dependencies: { a: ['b', 'c'], d: { required: ['e'] } },
            },
          },
        },
      ],
    },
    status: {},
  };
  assert.deepStrictEqual(roundTrip(crd), crd);
  // additionalProperties: false is {allows = 1: false}; a schema is {allows = 1: true, schema = 2} (the
  // schema body here holds only the set field; see README on unknown optional strings).
  const orBool = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool';
  assert.equal(hex(jsonToProtobuf(orBool, false)), '0800');
  assert.equal(hex(jsonToProtobuf(orBool, { type: 'string' })), '0801' + '1208' + '2a06' + Buffer.from('string').toString('hex'));
  assert.equal(protobufToJson(orBool, Uint8Array.of(0x08, 0x01)), true);
});

test('ExtraValue (a Go []string) is a JSON array inside a map', () => {
  const review = { kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null }, spec: { token: 't' }, status: { user: { username: 'u', extra: { scopes: ['a', 'b'] } } } };
  const decoded = decodeObject(encodeObject(review));
  assert.deepStrictEqual(((decoded['status'] as JsonObject)['user'] as JsonObject)['extra'], { scopes: ['a', 'b'] });
});

test('presence: set zero pointers survive, zero non-pointers are dropped from JSON like omitempty', () => {
  const deploy = {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    metadata: { name: 'd', namespace: 'default', creationTimestamp: null },
    spec: { replicas: 0, selector: { matchLabels: { app: 'd' } }, template: { metadata: { creationTimestamp: null, labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'i', resources: {} }] } }, strategy: {} },
    status: {},
  };
  const decoded = decodeObject(encodeObject(deploy));
  assert.deepStrictEqual(decoded, deploy); // replicas: 0 kept (a *int32), minReadySeconds 0 / paused false dropped
  // What a Go client sends for a bare object: every non-pointer written with its zero value.
  const fromGo = decodeObject(encodeObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x', generateName: '', uid: '', generation: 0 } }));
  assert.deepStrictEqual(fromGo, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x', creationTimestamp: null } });
  // A pointer string set to "" keeps its meaning (storageClassName "" disables dynamic provisioning).
  const pvc = { kind: 'PersistentVolumeClaim', apiVersion: 'v1', metadata: { name: 'p', creationTimestamp: null }, spec: { storageClassName: '', resources: {} }, status: {} };
  assert.deepStrictEqual(decodeObject(encodeObject(pvc)), pvc);
});

test('unknown fields on the wire are skipped; unknown JSON properties are ignored', () => {
  const cm = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x', creationTimestamp: null }, data: { a: 'b' } };
  const withExtra = encodeObject({ ...cm, notAField: 1, metadata: { ...cm.metadata, clusterName: 'gone' } });
  assert.deepStrictEqual(Buffer.from(withExtra), Buffer.from(encodeObject(cm)));
  const raw = jsonToProtobuf('k8s.io.api.core.v1.ConfigMap', cm);
  const extended = Buffer.concat([raw, Buffer.from([0xf8, 0x06, 0x01, 0xfa, 0x06, 0x01, 0x41])]); // fields 111 (varint), 111 (bytes)
  assert.deepStrictEqual(protobufToJson('k8s.io.api.core.v1.ConfigMap', extended), protobufToJson('k8s.io.api.core.v1.ConfigMap', raw));
});

test('values of the wrong JSON type are InvalidValue with a path', () => {
  assert.throws(
    () => encodeObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 5 } }),
    (e: unknown) => e instanceof ProtobufError && e.code === 'InvalidValue' && e.path === 'metadata.name',
  );
  assert.throws(() => encodeObject({ kind: 'Pod', apiVersion: 'v1', spec: { containers: {} } }), (e: unknown) => e instanceof ProtobufError && e.path === 'spec.containers');
  assert.throws(() => encodeObject({ kind: 'Pod', apiVersion: 'v1', spec: { containers: [{ name: 'c', ports: [{ containerPort: 2 ** 31 }] }] } }), ProtobufError);
});
