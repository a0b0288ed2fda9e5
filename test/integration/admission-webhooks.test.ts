/**
 * Admission webhooks against a real HTTPS webhook server (its own CA as caBundle): mutating
 * patches reach storage, validating refusals reach the client with kube's Status, dry runs and
 * sideEffects, timeouts under both failure policies, a service-referenced webhook dialed through
 * its EndpointSlice (with the client certificate the admission kubeconfig names for it), selectors
 * and matchConditions, warnings, reinvocation, audit annotations and metrics; and
 * ImagePolicyWebhook against a test backend.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { clientCert } from '../support/client-certs.js';
import { jsonPatch, startAdmissionWebhook, type TestAdmissionWebhook } from '../support/admission-webhook.js';
import { useServer } from '../support/server.js';

let hook: TestAdmissionWebhook;
after(() => hook?.stop());

const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/healthz*", "/livez*", "/readyz*", "/metrics"]
- level: Request
  resources: [{group: "", resources: [configmaps, pods]}]
- level: None
`;

async function setup(dir: string): Promise<string[]> {
  hook = await startAdmissionWebhook(['hook.default.svc']);
  const clientCA = hook.ca;
  const svcCert = await clientCert(clientCA, 'apiserver-to-service-hook');
  await writeFile(join(dir, 'svc-client.crt'), svcCert.cert);
  await writeFile(join(dir, 'svc-client.key'), svcCert.key);
  await writeFile(
    join(dir, 'webhook-users.yaml'),
    [
      'apiVersion: v1',
      'kind: Config',
      'users:',
      '- name: hook.default.svc',
      '  user:',
      `    client-certificate: ${join(dir, 'svc-client.crt')}`,
      `    client-key: ${join(dir, 'svc-client.key')}`,
      `- name: "127.0.0.1:${hook.port}"`,
      '  user:',
      '    token: url-hook-token',
      '',
    ].join('\n'),
  );
  await writeFile(join(dir, 'imagepolicy-ca.crt'), hook.ca.certPem);
  await writeFile(
    join(dir, 'imagepolicy.yaml'),
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: backend',
      '  cluster:',
      `    server: ${hook.url('/imagepolicy')}`,
      `    certificate-authority: ${join(dir, 'imagepolicy-ca.crt')}`,
      'users:',
      '- name: apiserver',
      '  user: {token: image-policy-token}',
      'contexts:',
      '- name: backend',
      '  context: {cluster: backend, user: apiserver}',
      'current-context: backend',
      '',
    ].join('\n'),
  );
  const webhookConfig = `    apiVersion: apiserver.config.k8s.io/v1\n    kind: WebhookAdmissionConfiguration\n    kubeConfigFile: ${join(dir, 'webhook-users.yaml')}\n`;
  await writeFile(
    join(dir, 'admission.yaml'),
    [
      'apiVersion: apiserver.config.k8s.io/v1',
      'kind: AdmissionConfiguration',
      'plugins:',
      '- name: MutatingAdmissionWebhook',
      '  configuration:',
      webhookConfig,
      '- name: ValidatingAdmissionWebhook',
      '  configuration:',
      webhookConfig,
      '- name: ImagePolicyWebhook',
      '  configuration:',
      '    imagePolicy:',
      `      kubeConfigFile: ${join(dir, 'imagepolicy.yaml')}`,
      '      allowTTL: 50',
      '      denyTTL: 50',
      '      retryBackoff: 500',
      '      defaultAllow: false',
      '',
    ].join('\n'),
  );
  await writeFile(join(dir, 'policy.yaml'), policy);
  await mkdir(join(dir, 'audit'), { recursive: true });
  return [
    '--enable-admission-plugins=ImagePolicyWebhook',
    `--admission-control-config-file=${join(dir, 'admission.yaml')}`,
    `--audit-policy-file=${join(dir, 'policy.yaml')}`,
    `--audit-log-path=${join(dir, 'audit', 'audit.log')}`,
    // The matchPolicy case converts to networking.k8s.io/v1beta1, off by default as in kube 1.33.
    '--runtime-config=networking.k8s.io/v1beta1=true',
  ];
}

const fx = useServer({}, () => setup(fx.dir));
const cms = '/api/v1/namespaces/default/configmaps';
const mutatingPath = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
const validatingPath = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';

/** A webhook of a configuration that matches configmaps labelled case=<c>. */
function webhookFor(name: string, c: string, path: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    clientConfig: { url: hook.url(path), caBundle: hook.caBundle },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    objectSelector: { matchLabels: { case: c } },
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

async function createConfig(path: string, name: string, webhooks: unknown[]): Promise<void> {
  const kind = path === mutatingPath ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
  const res = await fx.request('POST', path, { body: { apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks } });
  assert.equal(res.status, 201, res.text);
}

/** Retries fn until it returns true (the plugins see new configurations through an informer). */
async function until(fn: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (Date.now() < end) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** Waits until a dry-run create labelled case=c reaches path. */
async function waitForHook(c: string, path: string): Promise<void> {
  let n = 0;
  await until(async () => {
    await fx.request('POST', `${cms}?dryRun=All`, { body: { metadata: { name: `probe-${c}-${n++}`, labels: { case: c } } } });
    return hook.reviews(path).length > 0;
  }, `webhook ${path}`);
  hook.received.splice(0, hook.received.length);
}

/** The ResponseComplete audit event of auditID, once the log has it. */
async function auditEvent(auditID: string): Promise<Record<string, any>> {
  let found: Record<string, any> | undefined;
  await until(async () => {
    const text = await readFile(join(fx.dir, 'audit', 'audit.log'), 'utf8').catch(() => '');
    found = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, any>)
      .find((e) => e.auditID === auditID && e.stage === 'ResponseComplete');
    return found !== undefined;
  }, `the audit event ${auditID}`);
  return found as Record<string, any>;
}

function metricValue(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('admission webhooks', () => {
  it('a mutating webhook adds a label (JSON patch) that is stored; it sees kube\'s AdmissionReview; warnings and audit annotations', async () => {
    hook.handlers.set('/mutate', () => ({ ...jsonPatch([{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }]), warnings: ['mutated by the test webhook'], auditAnnotations: { note: 'hello' } }));
    await createConfig(mutatingPath, 'mutate-label', [webhookFor('label.example.com', 'mutate', '/mutate')]);
    await waitForHook('mutate', '/mutate');
    const res = await fx.request('POST', `${cms}?fieldManager=tester`, { body: { metadata: { name: 'mutated', labels: { case: 'mutate' } }, data: { a: '1' } }, headers: { 'audit-id': 'mutate-create' } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json().metadata.labels.mutated, 'yes');
    assert.match(String(res.headers.warning), /299 - "mutated by the test webhook"/);
    assert.equal((await fx.request('GET', `${cms}/mutated`)).json().metadata.labels.mutated, 'yes', 'the patch is in the stored object');
    const [sent] = hook.received;
    assert.equal(sent?.path, '/mutate');
    assert.equal(sent?.authorization, 'Bearer url-hook-token', 'the admission kubeconfig user of host:port');
    const review = sent!.review;
    assert.equal(review.apiVersion, 'admission.k8s.io/v1');
    const rq = review.request;
    assert.deepEqual(rq.kind, { group: '', version: 'v1', kind: 'ConfigMap' });
    assert.deepEqual(rq.resource, { group: '', version: 'v1', resource: 'configmaps' });
    assert.deepEqual(rq.requestKind, rq.kind);
    assert.deepEqual(rq.requestResource, rq.resource);
    assert.equal(rq.name, 'mutated');
    assert.equal(rq.namespace, 'default');
    assert.equal(rq.operation, 'CREATE');
    assert.equal(rq.dryRun, false);
    assert.equal(rq.oldObject, null);
    assert.equal(rq.object.kind, 'ConfigMap');
    assert.equal(rq.object.apiVersion, 'v1');
    assert.deepEqual(rq.object.data, { a: '1' });
    assert.deepEqual(rq.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'tester' });
    assert.ok(rq.userInfo.username);

    const ev = await auditEvent('mutate-create');
    assert.equal(ev.annotations['label.example.com/note'], 'hello');
    assert.deepEqual(JSON.parse(ev.annotations['mutation.webhook.admission.k8s.io/round_0_index_0']), { configuration: 'mutate-label', webhook: 'label.example.com', mutated: true });
    assert.deepEqual(JSON.parse(ev.annotations['patch.webhook.admission.k8s.io/round_0_index_0']), {
      configuration: 'mutate-label',
      webhook: 'label.example.com',
      patch: [{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }],
      patchType: 'JSONPatch',
    });

    const update = await fx.request('PUT', `${cms}/mutated`, { body: { metadata: { name: 'mutated', labels: { case: 'mutate' } }, data: { a: '2' } } });
    assert.equal(update.status, 200, update.text);
    const up = hook.reviews('/mutate').at(-1)!.request;
    assert.equal(up.operation, 'UPDATE');
    assert.equal(up.oldObject.data.a, '1');
    assert.deepEqual(up.options, { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' });
  });

  it('a validating webhook refuses with its message and code; webhook configurations themselves are never sent', async () => {
    hook.handlers.set('/deny', (r) => (r.request.name.startsWith('deny-') ? { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'names starting with deny- are not allowed' } } : { allowed: true }));
    const allOps = [{ operations: ['CREATE', 'UPDATE', 'DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
    await createConfig(validatingPath, 'deny', [webhookFor('deny.example.com', 'deny', '/deny', { rules: allOps })]);
    await waitForHook('deny', '/deny');
    const res = await fx.request('POST', cms, { body: { metadata: { name: 'deny-me', labels: { case: 'deny' } } } });
    assert.equal(res.status, 403);
    const s = res.json();
    assert.equal(s.kind, 'Status');
    assert.equal(s.reason, 'Forbidden');
    assert.equal(s.message, 'admission webhook "deny.example.com" denied the request: names starting with deny- are not allowed');
    assert.equal((await fx.request('GET', `${cms}/deny-me`)).status, 404);
    assert.equal((await fx.request('POST', cms, { body: { metadata: { name: 'fine', labels: { case: 'deny' } } } })).status, 201);
    const del = await fx.request('DELETE', `${cms}/fine`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' } });
    assert.equal(del.status, 200, del.text);
    const deleted = hook.reviews('/deny').at(-1)!.request;
    assert.equal(deleted.operation, 'DELETE');
    assert.equal(deleted.name, 'fine');
    assert.equal(deleted.object, null);
    assert.equal(deleted.oldObject.metadata.name, 'fine');
    assert.deepEqual(deleted.options, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background' });
    // A catch-all webhook on admissionregistration objects is never called for them.
    hook.handlers.set('/all', () => ({ allowed: false }));
    await createConfig(validatingPath, 'catch-all', [
      { ...webhookFor('all.example.com', 'x', '/all'), objectSelector: {}, rules: [{ operations: ['*'], apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['*'], resources: ['*'] }] },
    ]);
    await new Promise((r) => setTimeout(r, 300));
    await createConfig(validatingPath, 'another', [webhookFor('another.example.com', 'none', '/none')]);
    assert.equal((await fx.request('DELETE', `${validatingPath}/catch-all`)).status, 200);
    assert.equal(hook.reviews('/all').length, 0);
  });

  it('a dry run is refused by a webhook with sideEffects Some, before calling it', async () => {
    // admissionregistration/v1 no longer accepts Some; such a configuration survives only from
    // older clusters, in storage, which is where this one is put.
    hook.handlers.set('/side', () => ({ allowed: true }));
    const etcd = new Etcd3({ hosts: fx.etcd.endpoint });
    try {
      const obj = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'side-effects', uid: randomUUID(), creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }, webhooks: [{ ...webhookFor('side.example.com', 'side', '/side', { sideEffects: 'Some' }), failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, timeoutSeconds: 10 }] };
      await etcd.put('/registry/validatingwebhookconfigurations/side-effects').value(JSON.stringify(obj));
    } finally {
      etcd.close();
    }
    await until(async () => (await fx.request('POST', cms, { body: { metadata: { generateName: 'side-probe-', labels: { case: 'side' } } } })) && hook.reviews('/side').length > 0, 'the side-effects webhook');
    const before = hook.reviews('/side').length;
    const res = await fx.request('POST', `${cms}?dryRun=All`, { body: { metadata: { name: 'dry', labels: { case: 'side' } } } });
    assert.equal(res.status, 400);
    assert.equal(res.json().message, 'admission webhook "side.example.com" does not support dry run');
    assert.equal(res.json().reason, 'BadRequest');
    assert.equal(hook.reviews('/side').length, before, 'not called');
  });

  it('a webhook that does not answer within timeoutSeconds fails the request (Fail) or is ignored (Ignore)', async () => {
    hook.handlers.set('/hang', () => 'hang');
    await createConfig(validatingPath, 'hang-fail', [webhookFor('hang-fail.example.com', 'hang-fail', '/hang', { timeoutSeconds: 1, failurePolicy: 'Fail' })]);
    await createConfig(validatingPath, 'hang-ignore', [webhookFor('hang-ignore.example.com', 'hang-ignore', '/hang', { timeoutSeconds: 1, failurePolicy: 'Ignore' })]);
    let failed: Record<string, any> | undefined;
    await until(async () => {
      const r = await fx.request('POST', cms, { body: { metadata: { generateName: 'hang-fail-', labels: { case: 'hang-fail' } } } });
      if (r.status === 500) failed = r.json();
      return r.status === 500;
    }, 'the failing webhook');
    assert.equal(failed?.reason, 'InternalError');
    assert.equal(failed?.code, 500);
    assert.equal(failed?.message, `Internal error occurred: failed calling webhook "hang-fail.example.com": failed to call webhook: Post "${hook.url('/hang')}?timeout=1s": context deadline exceeded`);
    await until(async () => hook.received.some((r) => r.review.request?.object?.metadata?.labels?.case === 'hang-ignore') || ((await fx.request('POST', `${cms}?dryRun=All`, { body: { metadata: { generateName: 'p-', labels: { case: 'hang-ignore' } } } })), false), 'the ignored webhook');
    const started = Date.now();
    const ok = await fx.request('POST', cms, { body: { metadata: { name: 'hang-ignored', labels: { case: 'hang-ignore' } } } });
    assert.equal(ok.status, 201, ok.text);
    assert.ok(Date.now() - started >= 900, 'waited for the webhook');
    const metrics = (await fx.request('GET', '/metrics')).text;
    assert.ok((metricValue(metrics, 'apiserver_admission_webhook_fail_open_count', { name: 'hang-ignore.example.com', type: 'validating' }) ?? 0) >= 1, 'fail open counted');
    assert.ok((metricValue(metrics, 'apiserver_admission_webhook_rejection_count', { name: 'hang-fail.example.com', error_type: 'calling_webhook_error' }) ?? 0) >= 1, 'rejection counted');
    assert.ok((metricValue(metrics, 'apiserver_admission_webhook_request_total', { name: 'deny.example.com', type: 'validating', rejected: 'true', code: '403' }) ?? 0) >= 1);
    assert.ok(metrics.includes('apiserver_admission_webhook_admission_duration_seconds_bucket{name="label.example.com"'));
  });

  it('matchPolicy Equivalent calls a webhook for the resource in another version, converted to it', async () => {
    hook.handlers.set('/equiv', () => ({ allowed: true }));
    const rules = [{ operations: ['CREATE'], apiGroups: ['networking.k8s.io'], apiVersions: ['v1beta1'], resources: ['ipaddresses'] }];
    // The Exact one first: once the other is seen, so is it (one informer, in order).
    hook.handlers.set('/exact', () => ({ allowed: false }));
    await createConfig(validatingPath, 'exact', [webhookFor('exact.example.com', 'equiv', '/exact', { rules, matchPolicy: 'Exact' })]);
    await createConfig(validatingPath, 'equivalent', [webhookFor('equiv.example.com', 'equiv', '/equiv', { rules })]);
    const ip = (n: number) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress', metadata: { name: `192.0.2.${n}`, labels: { case: 'equiv' } }, spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'x' } } });
    let n = 100;
    await until(async () => {
      const r = await fx.request('POST', '/apis/networking.k8s.io/v1/ipaddresses', { body: ip(n++) });
      assert.equal(r.status, 201, r.text);
      return hook.reviews('/equiv').length > 0;
    }, 'the equivalent webhook');
    const rq = hook.reviews('/equiv').at(-1)!.request;
    assert.deepEqual(rq.kind, { group: 'networking.k8s.io', version: 'v1beta1', kind: 'IPAddress' });
    assert.deepEqual(rq.resource, { group: 'networking.k8s.io', version: 'v1beta1', resource: 'ipaddresses' });
    assert.deepEqual(rq.requestKind, { group: 'networking.k8s.io', version: 'v1', kind: 'IPAddress' });
    assert.deepEqual(rq.requestResource, { group: 'networking.k8s.io', version: 'v1', resource: 'ipaddresses' });
    assert.equal(rq.object.apiVersion, 'networking.k8s.io/v1beta1');
    assert.equal(hook.reviews('/exact').length, 0, 'an Exact webhook for v1beta1 is not called for v1');
  });

  it('a service-referenced webhook is dialed through its EndpointSlice with the client certificate named for the service', async () => {
    assert.equal((await fx.request('POST', '/api/v1/namespaces/default/services', { body: { metadata: { name: 'hook' }, spec: { ports: [{ name: 'https', port: 443, targetPort: hook.port }] } } })).status, 201);
    const slice = await fx.request('POST', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices', {
      body: { metadata: { name: 'hook-1', labels: { 'kubernetes.io/service-name': 'hook' } }, addressType: 'IPv4', endpoints: [{ addresses: ['127.0.0.1'] }], ports: [{ name: 'https', port: hook.port }] },
    });
    assert.equal(slice.status, 201, slice.text);
    hook.handlers.set('/svc', () => ({ allowed: true }));
    await createConfig(validatingPath, 'by-service', [
      { ...webhookFor('svc.example.com', 'svc', '/svc'), clientConfig: { service: { namespace: 'default', name: 'hook', path: '/svc' }, caBundle: hook.caBundle } },
    ]);
    await waitForHook('svc', '/svc');
    assert.equal((await fx.request('POST', cms, { body: { metadata: { name: 'via-service', labels: { case: 'svc' } } } })).status, 201);
    const got = hook.received.find((r) => r.path === '/svc');
    assert.equal(got?.review.request.name, 'via-service');
    assert.equal(got?.clientCN, 'apiserver-to-service-hook');
  });

  it('namespaceSelector, objectSelector and matchConditions skip the webhook', async () => {
    assert.equal((await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'hooked', labels: { hooked: 'yes' } } } })).status, 201);
    assert.equal((await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'plain' } } })).status, 201);
    hook.handlers.set('/select', () => ({ allowed: true }));
    await createConfig(validatingPath, 'selectors', [
      webhookFor('select.example.com', 'select', '/select', {
        namespaceSelector: { matchLabels: { hooked: 'yes' } },
        matchConditions: [{ name: 'not-skipped', expression: "!has(object.data) || !('skip' in object.data)" }],
      }),
    ]);
    const cm = (ns: string, name: string, labels: Record<string, string>, data?: Record<string, string>) =>
      fx.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name, labels }, ...(data ? { data } : {}) } });
    let n = 0;
    await until(async () => (await cm('hooked', `probe-${n++}`, { case: 'select' })) && hook.reviews('/select').length > 0, 'the selector webhook');
    hook.received.splice(0, hook.received.length);
    assert.equal((await cm('plain', 'a', { case: 'select' })).status, 201);
    assert.equal((await cm('hooked', 'b', { case: 'other' })).status, 201);
    assert.equal((await cm('hooked', 'c', { case: 'select' }, { skip: 'yes' })).status, 201);
    assert.equal((await cm('hooked', 'd', { case: 'select' })).status, 201);
    assert.deepEqual(hook.reviews('/select').map((r) => r.request.name), ['d']);
  });

  it('reinvocation: an IfNeeded webhook runs again after a later webhook changed the object', async () => {
    hook.handlers.set('/first', (r) => (r.request.object.metadata.annotations?.first ? { allowed: true } : jsonPatch([{ op: 'add', path: '/metadata/annotations', value: { first: 'ran' } }])));
    hook.handlers.set('/second', () => jsonPatch([{ op: 'add', path: '/metadata/labels/second', value: 'ran' }]));
    await createConfig(mutatingPath, 'reinvoke-a', [webhookFor('first.example.com', 'reinvoke', '/first', { reinvocationPolicy: 'IfNeeded' })]);
    await createConfig(mutatingPath, 'reinvoke-b', [webhookFor('second.example.com', 'reinvoke', '/second')]);
    await until(async () => {
      hook.received.splice(0, hook.received.length);
      await fx.request('POST', `${cms}?dryRun=All`, { body: { metadata: { name: 'probe', labels: { case: 'reinvoke' } } } });
      return hook.reviews('/second').length > 0 && hook.reviews('/first').length > 0;
    }, 'both reinvocation webhooks');
    hook.received.splice(0, hook.received.length);
    const res = await fx.request('POST', cms, { body: { metadata: { name: 'reinvoked', labels: { case: 'reinvoke' } } }, headers: { 'audit-id': 'reinvoke' } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json().metadata.annotations.first, 'ran');
    assert.equal(res.json().metadata.labels.second, 'ran');
    const first = hook.reviews('/first');
    assert.equal(first.length, 2, 'called in round 0 and again in round 1');
    assert.equal(first[1]!.request.object.metadata.labels.second, 'ran', 'the second call sees the later webhook\'s change');
    assert.equal(hook.reviews('/second').length, 1, 'a Never webhook runs once');
    const ev = await auditEvent('reinvoke');
    const keys = Object.keys(ev?.annotations ?? {}).filter((k) => k.startsWith('mutation.webhook.admission.k8s.io/'));
    assert.equal(keys.length, 3, keys.join(','));
    assert.ok(keys.some((k) => k.startsWith('mutation.webhook.admission.k8s.io/round_1_index_')), 'round 1 annotated');
  });

  it('ImagePolicyWebhook asks the backend about pod images and refuses what it denies', async () => {
    hook.handlers.set('/imagepolicy', (r) => {
      const images: string[] = (r.spec.containers ?? []).map((c: { image: string }) => c.image);
      const banned = images.some((i) => i.includes('banned'));
      return { $raw: { apiVersion: 'imagepolicy.k8s.io/v1alpha1', kind: 'ImageReview', status: { allowed: !banned, ...(banned ? { reason: 'banned image' } : {}), auditAnnotations: { 'reviewed-images': images.join(',') } } } };
    });
    const pod = (name: string, image: string) => ({ metadata: { name, annotations: { 'ticket.image-policy.k8s.io/id': '7', unrelated: 'x' } }, spec: { containers: [{ name: 'c', image }] } });
    const denied = await fx.request('POST', '/api/v1/namespaces/default/pods', { body: pod('bad', 'registry.example/banned:1') });
    assert.equal(denied.status, 403, denied.text);
    assert.equal(denied.json().message, 'pods "bad" is forbidden: image policy webhook backend denied one or more images: banned image');
    const ok = await fx.request('POST', '/api/v1/namespaces/default/pods', { body: pod('good', 'registry.example/fine:1'), headers: { 'audit-id': 'image-ok' } });
    assert.equal(ok.status, 201, ok.text);
    const reviews = hook.reviews('/imagepolicy');
    assert.equal(reviews.length, 2);
    assert.deepEqual(reviews[1]!.spec, { containers: [{ image: 'registry.example/fine:1' }], annotations: { 'ticket.image-policy.k8s.io/id': '7' }, namespace: 'default' });
    assert.equal(hook.received.filter((r) => r.path === '/imagepolicy').at(-1)?.authorization, 'Bearer image-policy-token');
    const ev = await auditEvent('image-ok');
    assert.equal(ev?.annotations['imagepolicywebhook.image-policy.k8s.io/reviewed-images'], 'registry.example/fine:1');
  });
});
