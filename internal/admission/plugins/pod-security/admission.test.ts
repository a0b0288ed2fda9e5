import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { PodSecurityAdmission, type PodSecurityAttributes } from './admission.js';
import { loadPodSecurityConfig } from './config.js';
import type { PodSecurityRecorder } from './metrics.js';
import { Evaluator } from './policy/evaluator.js';

const L = 'pod-security.kubernetes.io/';

function setup(namespaces: Record<string, Record<string, string>>, pods: KubeObject[] = [], config?: unknown) {
  const calls: string[] = [];
  const recorder: PodSecurityRecorder = {
    recordEvaluation: (d, p, m, a) => calls.push(`eval ${d} ${p.level} ${m} ${a.resource}`),
    recordExemption: (a) => calls.push(`exempt ${a.resource}`),
    recordError: (f, a) => calls.push(`error ${f} ${a.resource}`),
  };
  const core = new PodSecurityAdmission(
    loadPodSecurityConfig(config),
    new Evaluator(),
    recorder,
    async (name) => (namespaces[name] ? { metadata: { name, labels: namespaces[name] } } : undefined),
    async (ns) => pods.filter((p) => p.metadata.namespace === ns),
  );
  return { core, calls };
}

const privilegedPod = (name: string, ns = 'ns', extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  metadata: { name, namespace: ns, ...extra },
  spec: { containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }] },
});

function attrs(over: Partial<PodSecurityAttributes>): PodSecurityAttributes {
  return { operation: 'CREATE', group: '', resource: 'pods', subresource: '', namespace: 'ns', name: 'p', kind: 'Pod', object: undefined, oldObject: undefined, userName: 'alice', ...over };
}

describe('PodSecurityAdmission pods', () => {
  it('enforce refuses with kube\'s message; audit annotations and metrics', async () => {
    const { core, calls } = setup({ ns: { [`${L}enforce`]: 'baseline', [`${L}audit`]: 'restricted' } });
    const d = await core.validatePod(attrs({ object: privilegedPod('p') }));
    assert.equal(d.error?.status.code, 403);
    assert.equal(d.error?.status.message, 'pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)');
    assert.equal(d.warnings, undefined);
    assert.equal(d.annotations?.['enforce-policy'], 'baseline:latest');
    assert.match(d.annotations?.['audit-violations'] ?? '', /^would violate PodSecurity "restricted:latest": privileged \(.*\), allowPrivilegeEscalation != false/);
    assert.deepEqual(calls, ['eval deny baseline enforce pods', 'eval deny restricted audit pods']);
  });

  it('warn admits with a warning', async () => {
    const { core } = setup({ ns: { [`${L}warn`]: 'baseline', [`${L}warn-version`]: 'v1.30' } });
    const d = await core.validatePod(attrs({ object: privilegedPod('p') }));
    assert.equal(d.error, undefined);
    assert.deepEqual(d.warnings, ['would violate PodSecurity "baseline:v1.30": privileged (container "c" must not set securityContext.privileged=true)']);
    assert.equal(d.annotations?.['enforce-policy'], 'privileged:latest');
  });

  it('a fully privileged namespace is one allow evaluation', async () => {
    const { core, calls } = setup({ ns: {} });
    assert.deepEqual((await core.validatePod(attrs({ object: privilegedPod('p') }))).annotations, { 'enforce-policy': 'privileged:latest' });
    assert.deepEqual(calls, ['eval allow privileged enforce pods']);
  });

  it('exempt namespaces, users and runtime classes', async () => {
    const config = {
      apiVersion: 'pod-security.admission.config.k8s.io/v1',
      kind: 'PodSecurityConfiguration',
      defaults: { enforce: 'restricted' },
      exemptions: { namespaces: ['free'], usernames: ['root'], runtimeClasses: ['kata'] },
    };
    const { core, calls } = setup({ ns: {}, free: {} }, [], config);
    assert.deepEqual((await core.validatePod(attrs({ namespace: 'free', object: privilegedPod('p', 'free') }))).annotations, { exempt: 'namespace' });
    assert.deepEqual((await core.validatePod(attrs({ userName: 'root', object: privilegedPod('p') }))).annotations, { exempt: 'user' });
    const kata = privilegedPod('p');
    (kata.spec as Record<string, unknown>).runtimeClassName = 'kata';
    assert.deepEqual((await core.validatePod(attrs({ object: kata }))).annotations, { exempt: 'runtimeClass' });
    assert.deepEqual(calls, ['exempt pods', 'exempt pods', 'exempt pods']);
    assert.equal((await core.validatePod(attrs({ object: privilegedPod('p') }))).error?.status.code, 403, 'defaults apply to unlabelled namespaces');
  });

  it('ignores metadata-only updates and ignored subresources; re-checks image changes and ephemeral containers', async () => {
    const { core } = setup({ ns: { [`${L}enforce`]: 'baseline' } });
    const old = privilegedPod('p');
    const relabelled = privilegedPod('p', 'ns', { labels: { a: 'b' } });
    assert.deepEqual(await core.validatePod(attrs({ operation: 'UPDATE', object: relabelled, oldObject: old })), {});
    assert.deepEqual(await core.validatePod(attrs({ operation: 'UPDATE', subresource: 'status', object: relabelled, oldObject: old })), {});
    const newImage = privilegedPod('p');
    ((newImage.spec as { containers: Array<{ image: string }> }).containers[0] as { image: string }).image = 'j';
    assert.equal((await core.validatePod(attrs({ operation: 'UPDATE', object: newImage, oldObject: old }))).error?.status.code, 403);
    const ok: KubeObject = { metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'c', image: 'i' }] } };
    const debug: KubeObject = { ...ok, spec: { ...(ok.spec as object), ephemeralContainers: [{ name: 'dbg', image: 'x', securityContext: { privileged: true } }] } };
    const d = await core.validatePod(attrs({ operation: 'UPDATE', subresource: 'ephemeralcontainers', object: debug, oldObject: ok }));
    assert.match(d.error?.status.message ?? '', /container "dbg" must not set securityContext\.privileged=true/);
  });

  it('invalid labels: enforce evaluates as restricted and the error is annotated', async () => {
    const { core, calls } = setup({ ns: { [`${L}enforce`]: 'strict' } });
    const d = await core.validatePod(attrs({ object: privilegedPod('p') }));
    assert.match(d.error?.status.message ?? '', /violates PodSecurity "restricted:latest"/);
    assert.equal(
      d.annotations?.error,
      'Failed to parse policy: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    );
    assert.equal(calls[0], 'error false pods');
  });
});

describe('PodSecurityAdmission pod templates', () => {
  it('audit and warn only: a privileged template in an enforce=restricted namespace warns', async () => {
    const { core } = setup({ ns: { [`${L}enforce`]: 'restricted' } });
    const deploy: KubeObject = { metadata: { name: 'd', namespace: 'ns' }, spec: { template: { metadata: {}, spec: privilegedPod('x').spec } } };
    const d = await core.validatePodController(attrs({ group: 'apps', resource: 'deployments', name: 'd', object: deploy }));
    assert.equal(d.error, undefined);
    assert.match(d.warnings?.[0] ?? '', /^would violate PodSecurity "restricted:latest": privileged \(container "c" must not set/);
    assert.equal(d.annotations?.['enforce-policy'], undefined);
    const cron: KubeObject = { metadata: { name: 'c', namespace: 'ns' }, spec: { jobTemplate: { spec: { template: { spec: privilegedPod('x').spec } } } } };
    assert.equal((await core.validatePodController(attrs({ group: 'batch', resource: 'cronjobs', object: cron }))).warnings?.length, 1);
    assert.deepEqual(await core.validatePodController(attrs({ resource: 'replicationcontrollers', object: { metadata: { name: 'r' }, spec: {} } })), {});
  });

  it('a namespace it cannot read is annotated, not refused', async () => {
    const { core, calls } = setup({});
    const d = await core.validatePodController(attrs({ group: 'apps', resource: 'deployments', namespace: 'gone', object: { metadata: { name: 'd' } } }));
    assert.equal(d.error, undefined);
    assert.equal(d.annotations?.error, 'failed to lookup namespace "gone": namespaces "gone" not found');
    assert.deepEqual(calls, ['error false deployments']);
  });
});

describe('PodSecurityAdmission namespaces', () => {
  const ns = (labels: Record<string, string>): KubeObject => ({ metadata: { name: 'ns', labels } });

  it('refuses invalid labels on create, and on update only when they changed', async () => {
    const { core } = setup({});
    const bad = ns({ [`${L}enforce`]: 'strict' });
    const d = await core.validateNamespace(attrs({ resource: 'namespaces', kind: 'Namespace', name: 'ns', namespace: '', object: bad }));
    assert.equal(d.error?.status.code, 422);
    assert.equal(
      d.error?.status.message,
      'Namespace "ns" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    );
    const same = await core.validateNamespace(attrs({ operation: 'UPDATE', resource: 'namespaces', kind: 'Namespace', name: 'ns', object: bad, oldObject: bad }));
    assert.equal(same.error, undefined);
  });

  it('raising enforce warns about existing pods, grouped, with kube\'s wording', async () => {
    const pods = [privilegedPod('b'), privilegedPod('a'), privilegedPod('c'), { metadata: { name: 'host', namespace: 'ns' }, spec: { hostNetwork: true, containers: [{ name: 'c' }] } }, privilegedPod('other', 'elsewhere')];
    const { core } = setup({}, pods);
    const d = await core.validateNamespace(attrs({ operation: 'UPDATE', resource: 'namespaces', kind: 'Namespace', name: 'ns', object: ns({ [`${L}enforce`]: 'baseline' }), oldObject: ns({}) }));
    assert.deepEqual(d.warnings, [
      'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"',
      'a (and 2 other pods): privileged',
      'host: host namespaces',
    ]);
    const relaxed = await core.validateNamespace(
      attrs({ operation: 'UPDATE', resource: 'namespaces', kind: 'Namespace', name: 'ns', object: ns({ [`${L}enforce`]: 'baseline' }), oldObject: ns({ [`${L}enforce`]: 'restricted' }) }),
    );
    assert.deepEqual(relaxed, {});
  });
});
