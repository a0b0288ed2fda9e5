/**
 * A table of invalid objects across the resources users touch most: each answers 422 Invalid
 * naming the field and kube's message in the causes, and nothing is stored.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';

const fx = useServer();

type Obj = Record<string, any>;

const pod = (spec: Obj, meta: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ...meta }, spec });
const c = (extra: Obj = {}): Obj => ({ name: 'c', image: 'busybox', ...extra });
const svc = (spec: Obj, name = 's'): Obj => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });
const deploy = (spec: Obj): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd' },
  spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [c()] } }, ...spec },
});
const cm = (body: Obj, meta: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', ...meta }, ...body });
const secret = (body: Obj): Obj => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sec' }, ...body });
const ev = (body: Obj): Obj => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'e' },
  eventTime: '2024-01-01T00:00:00.000000Z',
  action: 'Created',
  reason: 'Testing',
  reportingController: 'example.com/tester',
  reportingInstance: 'tester-1',
  type: 'Normal',
  regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
  ...body,
});
const role = (rules: unknown): Obj => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' }, rules });
const binding = (body: Obj): Obj => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  metadata: { name: 'rb' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
  subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }],
  ...body,
});
const job = (spec: Obj): Obj => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'j' },
  spec: { template: { spec: { restartPolicy: 'Never', containers: [c()] } }, ...spec },
});

const paths: Record<string, string> = {
  Pod: '/api/v1/namespaces/default/pods',
  Service: '/api/v1/namespaces/default/services',
  Deployment: '/apis/apps/v1/namespaces/default/deployments',
  ConfigMap: '/api/v1/namespaces/default/configmaps',
  Secret: '/api/v1/namespaces/default/secrets',
  Event: '/apis/events.k8s.io/v1/namespaces/default/events',
  CoreEvent: '/api/v1/namespaces/default/events',
  Namespace: '/api/v1/namespaces',
  Node: '/api/v1/nodes',
  Role: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles',
  RoleBinding: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings',
  Job: '/apis/batch/v1/namespaces/default/jobs',
};

/** [title, collection, object, field, message pattern] */
const createCases: Array<[string, string, Obj, string, RegExp]> = [
  ['pod without containers', 'Pod', pod({ containers: [] }), 'spec.containers', /^Required value/],
  ['pod container name not a DNS label', 'Pod', pod({ containers: [c({ name: 'Bad_Name' })] }), 'spec.containers[0].name', /^Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of/],
  ['pod with duplicate container names', 'Pod', pod({ containers: [c({ name: 'a' }), c({ name: 'a' })] }), 'spec.containers[1].name', /^Duplicate value: "a"/],
  ['pod container without image', 'Pod', pod({ containers: [{ name: 'c' }] }), 'spec.containers[0].image', /^Required value/],
  ['pod container port out of range', 'Pod', pod({ containers: [c({ ports: [{ containerPort: 70000 }] })] }), 'spec.containers[0].ports[0].containerPort', /^Invalid value: 70000: must be between 1 and 65535, inclusive/],
  ['pod restartPolicy unknown', 'Pod', pod({ restartPolicy: 'Sometimes', containers: [c()] }), 'spec.restartPolicy', /^Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"/],
  ['pod dnsPolicy unknown', 'Pod', pod({ dnsPolicy: 'Weird', containers: [c()] }), 'spec.dnsPolicy', /^Unsupported value: "Weird"/],
  ['pod requests above limits', 'Pod', pod({ containers: [c({ resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } })] }), 'spec.containers[0].resources.requests', /must be less than or equal to cpu limit/],
  ['pod volumeMount of an unknown volume', 'Pod', pod({ containers: [c({ volumeMounts: [{ name: 'data', mountPath: '/data' }] })] }), 'spec.containers[0].volumeMounts[0].name', /^Not found: "data"/],
  ['pod label value too long', 'Pod', pod({ containers: [c()] }, { labels: { a: 'x'.repeat(64) } }), 'metadata.labels', /must be no more than 63 (characters|bytes)/],
  ['pod annotation key invalid', 'Pod', pod({ containers: [c()] }, { annotations: { 'bad key': 'v' } }), 'metadata.annotations', /^Invalid value: "bad key": name part must consist of/],
  ['service without ports', 'Service', svc({}), 'spec.ports', /^Required value/],
  ['service port 0', 'Service', svc({ ports: [{ port: 0 }] }), 'spec.ports[0].port', /^Invalid value: 0: must be between 1 and 65535, inclusive/],
  ['service type unknown', 'Service', svc({ type: 'Weird', ports: [{ port: 80 }] }), 'spec.type', /^Unsupported value: "Weird"/],
  ['service duplicate port names', 'Service', svc({ ports: [{ name: 'http', port: 80 }, { name: 'http', port: 81 }] }), 'spec.ports[1].name', /^Duplicate value: "http"/],
  ['service unnamed ports when several', 'Service', svc({ ports: [{ port: 80 }, { port: 81 }] }), 'spec.ports[0].name', /^Required value/],
  ['service sessionAffinity unknown', 'Service', svc({ sessionAffinity: 'Sticky', ports: [{ port: 80 }] }), 'spec.sessionAffinity', /^Unsupported value: "Sticky"/],
  ['service name not a DNS-1035 label', 'Service', svc({ ports: [{ port: 80 }] }, '1svc'), 'metadata.name', /^Invalid value: "1svc": a DNS-1035 label must consist of/],
  ['deployment without selector', 'Deployment', deploy({ selector: undefined }), 'spec.selector', /^Required value/],
  ['deployment selector not matching the template', 'Deployment', deploy({ selector: { matchLabels: { app: 'b' } } }), 'spec.template.metadata.labels', /`selector` does not match template `labels`/],
  ['deployment negative replicas', 'Deployment', deploy({ replicas: -1 }), 'spec.replicas', /^Invalid value: -1: must be greater than or equal to 0/],
  // kube reports the whole strategy at spec.strategy.
  ['deployment strategy type unknown', 'Deployment', deploy({ strategy: { type: 'Whatever' } }), 'spec.strategy', /^Unsupported value: .*Whatever.*: supported values: "Recreate", "RollingUpdate"/],
  ['configmap key with a space', 'ConfigMap', cm({ data: { 'a b': 'v' } }), 'data[a b]', /^Invalid value: "a b": a valid config key must consist of alphanumeric characters/],
  ['configmap key in data and binaryData', 'ConfigMap', cm({ data: { k: 'v' }, binaryData: { k: 'dg==' } }), 'data[k]', /duplicate of key present in binaryData/],
  ['configmap larger than 1 MiB', 'ConfigMap', cm({ data: { big: 'x'.repeat(1024 * 1024 + 1) } }), '', /^Too long: may not be more than 1048576 bytes/],
  ['secret key with a space', 'Secret', secret({ data: { 'a b': 'dg==' } }), 'data[a b]', /^Invalid value: "a b": a valid config key must consist of/],
  ['tls secret without tls.crt', 'Secret', secret({ type: 'kubernetes.io/tls', data: { 'tls.key': 'dg==' } }), 'data[tls.crt]', /^Required value/],
  ['events.k8s.io event without eventTime', 'Event', ev({ eventTime: undefined }), 'eventTime', /^Required value/],
  // kube's ValidateEventCreate words these as Invalid with an empty value, and reports note as message.
  ['events.k8s.io event with an unknown type', 'Event', ev({ type: 'Bad' }), 'type', /^Invalid value: "": has invalid value: Bad/],
  ['events.k8s.io event without reportingController', 'Event', ev({ reportingController: undefined }), 'reportingController', /^Required value/],
  ['events.k8s.io event with a long note', 'Event', ev({ note: 'n'.repeat(1025) }), 'message', /^Invalid value: "": can have at most 1024 characters/],
  ['core event for another namespace', 'CoreEvent', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'ce' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'other' } }, 'involvedObject.namespace', /does not match event\.namespace/],
  ['namespace name not a DNS label', 'Namespace', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'Bad.Name' } }, 'metadata.name', /^Invalid value: "Bad\.Name": a lowercase RFC 1123 label must consist of/],
  ['node name not a DNS subdomain', 'Node', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'Bad_Node' } }, 'metadata.name', /^Invalid value: "Bad_Node": a lowercase RFC 1123 subdomain must consist of/],
  ['role rule without verbs', 'Role', role([{ apiGroups: [''], resources: ['pods'] }]), 'rules[0].verbs', /^Required value/],
  ['rolebinding subject kind unknown', 'RoleBinding', binding({ subjects: [{ kind: 'Robot', name: 'r2' }] }), 'subjects[0].kind', /^Unsupported value: "Robot"/],
  ['rolebinding without roleRef name', 'RoleBinding', binding({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: '' } }), 'roleRef.name', /^Required value/],
  ['job template restartPolicy Always', 'Job', job({ template: { spec: { restartPolicy: 'Always', containers: [c()] } } }), 'spec.template.spec.restartPolicy', /^(Unsupported value: "Always"|Required value)/],
  ['job negative parallelism', 'Job', job({ parallelism: -1 }), 'spec.parallelism', /^Invalid value: -1: must be greater than or equal to 0/],
  ['job negative completions', 'Job', job({ completions: -1 }), 'spec.completions', /^Invalid value: -1: must be greater than or equal to 0/],
];

async function expectInvalid(path: string, method: string, body: Obj, field: string, message: RegExp): Promise<void> {
  const res = await fx.request(method, path, { body });
  assert.equal(res.status, 422, `expected 422, got ${res.status}: ${res.text.slice(0, 400)}`);
  const s = res.json();
  assert.equal(s.reason, 'Invalid');
  const cause = (s.details?.causes ?? []).find((x: Obj) => x.field === field && message.test(x.message));
  assert.ok(cause, `a cause for ${field} matching ${message}; got ${JSON.stringify(s.details?.causes)}`);
}

describe('invalid objects are 422 with the field and kube message', () => {
  for (const [title, kind, obj, field, message] of createCases) {
    it(title, async () => {
      await expectInvalid(paths[kind] as string, 'POST', obj, field, message);
      const name = (obj.metadata as Obj).name as string;
      const base = kind === 'Namespace' || kind === 'Node' ? (paths[kind] as string) : (paths[kind] as string);
      assert.equal((await fx.request('GET', `${base}/${encodeURIComponent(name)}`)).status, 404, 'nothing was stored');
    });
  }
  assert.ok(createCases.length >= 40);
});

describe('invalid updates', () => {
  it('pod spec is immutable beyond the fields kube allows; image changes are allowed', async () => {
    const created = (await fx.request('POST', paths.Pod as string, { body: pod({ containers: [c()] }, { name: 'immutable' }) })).json();
    const image = structuredClone(created);
    image.spec.containers[0].image = 'busybox:2';
    assert.equal((await fx.request('PUT', `${paths.Pod}/immutable`, { body: image })).status, 200);
    const current = (await fx.request('GET', `${paths.Pod}/immutable`)).json();
    current.spec.containers[0].command = ['sh'];
    const res = await fx.request('PUT', `${paths.Pod}/immutable`, { body: current });
    assert.equal(res.status, 422);
    const cause = res.json().details.causes.find((x: Obj) => x.field === 'spec');
    assert.match(cause.message, /^Forbidden: pod updates may not change fields other than/);
  });

  it('deployment selector, service clusterIP, configmap immutability, rolebinding roleRef, job template', async () => {
    const d = (await fx.request('POST', paths.Deployment as string, { body: deploy({}) })).json();
    d.spec.selector = { matchLabels: { app: 'a', extra: 'x' } };
    d.spec.template.metadata.labels.extra = 'x';
    await expectInvalid(`${paths.Deployment}/d`, 'PUT', d, 'spec.selector', /field is immutable/);

    const s = (await fx.request('POST', paths.Service as string, { body: svc({ ports: [{ port: 80 }] }, 'keepip') })).json();
    s.spec.clusterIP = '10.0.0.99';
    s.spec.clusterIPs = ['10.0.0.99'];
    await expectInvalid(`${paths.Service}/keepip`, 'PUT', s, 'spec.clusterIPs[0]', /may not change once set|field is immutable/);

    const frozen = (await fx.request('POST', paths.ConfigMap as string, { body: cm({ data: { a: '1' }, immutable: true }, { name: 'frozen' }) })).json();
    frozen.data = { a: '2' };
    await expectInvalid(`${paths.ConfigMap}/frozen`, 'PUT', frozen, 'data', /field is immutable when `immutable` is set/);

    const rb = (await fx.request('POST', paths.RoleBinding as string, { body: binding({}) })).json();
    rb.roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'other' };
    await expectInvalid(`${paths.RoleBinding}/rb`, 'PUT', rb, 'roleRef', /cannot change roleRef/);

    const j = (await fx.request('POST', paths.Job as string, { body: job({}) })).json();
    j.spec.template.spec.containers[0].image = 'other';
    await expectInvalid(`${paths.Job}/j`, 'PUT', j, 'spec.template', /field is immutable/);
  });

  it('status and main resource stay apart: PUT to pods/status cannot change the spec, PUT to the pod cannot change its status', async () => {
    const created = (await fx.request('POST', paths.Pod as string, { body: pod({ containers: [c()] }, { name: 'split' }) })).json();
    const viaStatus = structuredClone(created);
    viaStatus.spec.activeDeadlineSeconds = 30;
    viaStatus.status = { ...viaStatus.status, phase: 'Running', podIP: '10.1.2.3' };
    const s = await fx.request('PUT', `${paths.Pod}/split/status`, { body: viaStatus });
    assert.equal(s.status, 200, s.text);
    assert.equal(s.json().status.phase, 'Running');
    assert.equal(s.json().spec.activeDeadlineSeconds, undefined, 'the status write left the spec alone');
    const viaMain = s.json();
    viaMain.status.phase = 'Failed';
    viaMain.spec.activeDeadlineSeconds = 30;
    const m = await fx.request('PUT', `${paths.Pod}/split`, { body: viaMain });
    assert.equal(m.status, 200, m.text);
    assert.equal(m.json().status.phase, 'Running', 'the main resource left the status alone');
    assert.equal(m.json().spec.activeDeadlineSeconds, 30);
  });
});
