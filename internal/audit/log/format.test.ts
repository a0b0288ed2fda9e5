import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attachEncodedJson } from '../../storage/encoded.js';
import type { AuditEvent } from '../interface.js';
import { encodeEventJson } from './json.js';
import { eventString } from './legacy.js';

const event: AuditEvent = {
  kind: 'Event',
  apiVersion: 'audit.k8s.io/v1',
  level: 'RequestResponse',
  auditID: 'id-1',
  stage: 'ResponseComplete',
  requestURI: '/api/v1/namespaces/ns/configmaps?a=1&b=<2>',
  verb: 'create',
  user: { username: 'alice', uid: 'u1', groups: ['devs', 'system:authenticated'], extra: { 'z.io/k': ['1'], 'a.io/k': ['2'] } },
  impersonatedUser: { username: 'bob', groups: ['qa'] },
  sourceIPs: ['10.0.0.1', '127.0.0.1'],
  userAgent: 'kubectl/v1.33.0',
  objectRef: { resource: 'configmaps', namespace: 'ns', name: 'cm', apiVersion: 'v1' },
  responseStatus: { metadata: {}, code: 201 },
  requestObject: { kind: 'ConfigMap', data: { html: '<b>&</b>' } },
  responseObject: { kind: 'ConfigMap', metadata: { name: 'cm' } },
  requestReceivedTimestamp: '2025-01-02T03:04:05.123456Z',
  stageTimestamp: '2025-01-02T03:04:05.223456Z',
  annotations: { 'z/b': '1', 'a/b': '2' },
};

describe('audit log formats', () => {
  it('json: kube’s field order, omitempty, sorted maps, Go’s HTML escaping', () => {
    assert.equal(
      encodeEventJson(event),
      '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"RequestResponse","auditID":"id-1","stage":"ResponseComplete",' +
        '"requestURI":"/api/v1/namespaces/ns/configmaps?a=1\\u0026b=\\u003c2\\u003e","verb":"create",' +
        '"user":{"username":"alice","uid":"u1","groups":["devs","system:authenticated"],"extra":{"a.io/k":["2"],"z.io/k":["1"]}},' +
        '"impersonatedUser":{"username":"bob","groups":["qa"]},"sourceIPs":["10.0.0.1","127.0.0.1"],"userAgent":"kubectl/v1.33.0",' +
        '"objectRef":{"resource":"configmaps","namespace":"ns","name":"cm","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":201},' +
        '"requestObject":{"kind":"ConfigMap","data":{"html":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"}},"responseObject":{"kind":"ConfigMap","metadata":{"name":"cm"}},' +
        '"requestReceivedTimestamp":"2025-01-02T03:04:05.123456Z","stageTimestamp":"2025-01-02T03:04:05.223456Z","annotations":{"a/b":"2","z/b":"1"}}',
    );
    const minimal: AuditEvent = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'Metadata',
      auditID: 'id-2',
      stage: 'ResponseStarted',
      requestURI: '/x',
      verb: 'get',
      user: {} as AuditEvent['user'],
      sourceIPs: [],
      responseStatus: { metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 },
      requestReceivedTimestamp: 't1',
      stageTimestamp: 't2',
      annotations: {},
    };
    assert.equal(
      encodeEventJson(minimal),
      '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"id-2","stage":"ResponseStarted","requestURI":"/x","verb":"get","user":{},' +
        '"responseStatus":{"metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401},"requestReceivedTimestamp":"t1","stageTimestamp":"t2"}',
    );
  });

  it('json: a response object from the watch cache is written from its bytes', () => {
    const obj = attachEncodedJson({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm', resourceVersion: '5' } }, Buffer.from('{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm","resourceVersion":"5"},"cached":true}'));
    const line = encodeEventJson({ ...event, responseObject: obj });
    assert.match(line, /"responseObject":\{"kind":"ConfigMap","apiVersion":"v1","metadata":\{"name":"cm","resourceVersion":"5"\},"cached":true\}/);
  });

  it('legacy: kube’s one-line text', () => {
    const previous = process.env.TZ;
    process.env.TZ = 'UTC';
    try {
      assert.equal(
        eventString(event),
        '2025-01-02T03:04:05.123456Z AUDIT: id="id-1" stage="ResponseComplete" ip="10.0.0.1" method="create" user="alice" ' +
          'groups="\\"devs\\",\\"system:authenticated\\"" as="bob" asgroups="\\"qa\\"" user-agent="kubectl/v1.33.0" namespace="ns" ' +
          'uri="/api/v1/namespaces/ns/configmaps?a=1&b=<2>" response="201"',
      );
      const bare: AuditEvent = { ...event, user: {} as AuditEvent['user'], stage: 'RequestReceived', sourceIPs: [], userAgent: '', requestReceivedTimestamp: '2025-01-02T03:04:05.100000Z' };
      delete bare.impersonatedUser;
      delete bare.responseStatus;
      delete bare.objectRef;
      assert.equal(
        eventString(bare),
        '2025-01-02T03:04:05.1Z AUDIT: id="id-1" stage="RequestReceived" ip="<unknown>" method="create" user="<none>" groups="<none>" as="<self>" asgroups="<lookup>" ' +
          'user-agent="" namespace="<none>" uri="/api/v1/namespaces/ns/configmaps?a=1&b=<2>" response="<deferred>"',
      );
    } finally {
      if (previous === undefined) delete process.env.TZ;
      else process.env.TZ = previous;
    }
  });
});
