/**
 * PodSecurity against a real server and etcd: a namespace enforcing restricted refuses a
 * privileged pod with kube's exact message; warn admits with kube's Warning header; the
 * PodSecurityConfiguration in --admission-control-config-file sets defaults and exempts a
 * namespace; workload templates only warn; raising a namespace's enforce level lists the existing
 * pods that violate it; invalid labels are refused; audit annotations and metrics are recorded.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useServer, type TestResponse } from '../support/server.js';

const admissionConfig = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.k8s.io/v1
    kind: PodSecurityConfiguration
    defaults:
      warn: baseline
    exemptions:
      namespaces: [exempt-ns]
      runtimeClasses: [kata]
`;

const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: Metadata
  resources: [{group: "", resources: [pods]}]
- level: None
`;

const fx = useServer({}, async () => {
  await writeFile(join(fx.dir, 'admission.yaml'), admissionConfig);
  await writeFile(join(fx.dir, 'audit-policy.yaml'), auditPolicy);
  return [
    `--admission-control-config-file=${join(fx.dir, 'admission.yaml')}`,
    `--audit-policy-file=${join(fx.dir, 'audit-policy.yaml')}`,
    `--audit-log-path=${join(fx.dir, 'audit.log')}`,
  ];
});

const L = 'pod-security.kubernetes.io/';
const privileged = (name: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }], ...extra },
});

async function namespace(name: string, labels: Record<string, string>): Promise<void> {
  const r = await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name, labels } } });
  assert.equal(r.status, 201, r.text);
}

/** The Warning header's texts. */
function warnings(r: TestResponse): string[] {
  const h = r.headers.warning;
  const list = h === undefined ? [] : Array.isArray(h) ? h : [h];
  return list.flatMap((v) => [...v.matchAll(/299 - ("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1] as string) as string));
}

const restrictedMessage =
  'pods "priv" is forbidden: violates PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), ' +
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

describe('PodSecurity admission', () => {
  it('enforce=restricted refuses a privileged pod with kube\'s message and records audit annotations', async () => {
    await namespace('enforced', { [`${L}enforce`]: 'restricted' });
    const r = await fx.request('POST', '/api/v1/namespaces/enforced/pods', { body: privileged('priv') });
    assert.equal(r.status, 403);
    const status = r.json();
    assert.equal(status.reason, 'Forbidden');
    assert.equal(status.message, restrictedMessage);
    assert.deepEqual(status.details, { name: 'priv', kind: 'pods' });
    assert.deepEqual(warnings(r), []);
    const good = {
      metadata: { name: 'good' },
      spec: {
        securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [{ name: 'c', image: 'busybox', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
      },
    };
    assert.equal((await fx.request('POST', '/api/v1/namespaces/enforced/pods', { body: good })).status, 201);

    let events: Array<Record<string, any>> = [];
    for (let i = 0; i < 50 && events.length < 2; i++) {
      const text = await readFile(join(fx.dir, 'audit.log'), 'utf8').catch(() => '');
      events = text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l))
        .filter((e) => e.stage === 'ResponseComplete' && e.objectRef?.namespace === 'enforced' && e.verb === 'create');
      if (events.length < 2) await new Promise((res) => setTimeout(res, 100));
    }
    const refused = events.find((e) => e.objectRef.name === 'priv');
    assert.equal(refused?.annotations?.['pod-security.kubernetes.io/enforce-policy'], 'restricted:latest');
    assert.equal(refused?.responseStatus?.code, 403);
    const admitted = events.find((e) => e.objectRef.name === 'good');
    assert.equal(admitted?.annotations?.['pod-security.kubernetes.io/enforce-policy'], 'restricted:latest');
    assert.equal(admitted?.annotations?.['pod-security.kubernetes.io/audit-violations'], undefined);
  });

  it('warn admits with the Warning header', async () => {
    await namespace('warned', { [`${L}warn`]: 'baseline', [`${L}warn-version`]: 'v1.33' });
    const r = await fx.request('POST', '/api/v1/namespaces/warned/pods', { body: privileged('priv') });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings(r), ['would violate PodSecurity "baseline:v1.33": privileged (container "c" must not set securityContext.privileged=true)']);
  });

  it('the configuration file sets the defaults and exempts namespaces and runtime classes', async () => {
    await namespace('plain', {});
    const plain = await fx.request('POST', '/api/v1/namespaces/plain/pods', { body: privileged('priv') });
    assert.equal(plain.status, 201);
    assert.deepEqual(warnings(plain), ['would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)']);
    await namespace('exempt-ns', { [`${L}enforce`]: 'restricted' });
    const exempt = await fx.request('POST', '/api/v1/namespaces/exempt-ns/pods', { body: privileged('priv') });
    assert.equal(exempt.status, 201, exempt.text);
    assert.deepEqual(warnings(exempt), []);
    // The RuntimeClass plugin needs the class to exist.
    assert.equal((await fx.request('POST', '/apis/node.k8s.io/v1/runtimeclasses', { body: { metadata: { name: 'kata' }, handler: 'kata' } })).status, 201);
    const kata = await fx.request('POST', '/api/v1/namespaces/enforced/pods', { body: privileged('kata-pod', { runtimeClassName: 'kata' }) });
    assert.equal(kata.status, 201, kata.text);
  });

  it('a Deployment with a privileged template in an enforce=restricted namespace is admitted with a warning', async () => {
    const deploy = {
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: privileged('x').spec } },
    };
    const r = await fx.request('POST', '/apis/apps/v1/namespaces/enforced/deployments', { body: deploy });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(warnings(r), [restrictedMessage.replace('pods "priv" is forbidden: violates', 'would violate')]);
  });

  it('raising a namespace\'s enforce level warns about the pods already in it', async () => {
    await namespace('later', {});
    assert.equal((await fx.request('POST', '/api/v1/namespaces/later/pods', { body: privileged('p1') })).status, 201);
    assert.equal((await fx.request('POST', '/api/v1/namespaces/later/pods', { body: privileged('p2', { hostNetwork: true }) })).status, 201);
    const patch = (level: string) =>
      fx.request('PATCH', '/api/v1/namespaces/later', { rawBody: JSON.stringify({ metadata: { labels: { [`${L}enforce`]: level } } }), headers: { 'content-type': 'application/merge-patch+json' } });
    // The pods reach the plugin through its informer: retry until it has seen both.
    let got: string[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await patch('baseline');
      assert.equal(r.status, 200, r.text);
      got = warnings(r);
      if (got.length === 3) break;
      assert.equal((await patch('privileged')).status, 200);
      await new Promise((res) => setTimeout(res, 100));
    }
    assert.deepEqual(got, [
      'existing pods in namespace "later" violate the new PodSecurity enforce level "baseline:latest"',
      'p1: privileged',
      'p2: host namespaces, privileged',
    ]);
  });

  it('refuses invalid labels with kube\'s Invalid error', async () => {
    const r = await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'bad-labels', labels: { [`${L}enforce`]: 'strict' } } } });
    assert.equal(r.status, 422);
    assert.equal(
      r.json().message,
      'Namespace "bad-labels" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    );
  });

  it('counts evaluations and exemptions', async () => {
    const text = (await fx.request('GET', '/metrics')).text;
    assert.match(text, /# HELP pod_security_evaluations_total \[ALPHA\] Number of policy evaluations that occurred, not counting ignored or exempt requests\.\n/);
    assert.match(text, /pod_security_evaluations_total\{decision="deny",policy_level="restricted",policy_version="latest",mode="enforce",request_operation="create",resource="pod",subresource=""\} 1/);
    assert.match(text, /pod_security_evaluations_total\{decision="deny",policy_level="restricted",policy_version="latest",mode="warn",request_operation="create",resource="controller",subresource=""\} 1/);
    assert.match(text, /pod_security_exemptions_total\{request_operation="create",resource="pod",subresource=""\} 2/);
  });
});
