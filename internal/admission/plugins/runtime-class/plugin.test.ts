import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { attrsFor, FakeInformer, pod, testContext } from '../pod-shared/fakes.js';
import type { Pod } from '../pod-shared/pod-types.js';
import { RuntimeClassAdmission } from './plugin.js';

const rc = (name: string, extra: Record<string, unknown>): KubeObject => ({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name }, handler: name, ...extra });

function plugin(classes: KubeObject[], live: KubeObject[] = []): RuntimeClassAdmission {
  return new RuntimeClassAdmission(new FakeInformer(classes).asInformer(), async (_ns, name) => live.find((c) => c.metadata.name === name));
}

describe('RuntimeClass admission', () => {
  const kata = rc('kata', {
    overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
    scheduling: { nodeSelector: { sandbox: 'kata' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
  });

  it('sets the overhead and merges the scheduling constraints', async () => {
    const obj = pod('p', { runtimeClassName: 'kata', nodeSelector: { disk: 'ssd' }, containers: [] });
    await plugin([kata]).admit(attrsFor('CREATE', obj), testContext);
    const spec = (obj as Pod).spec!;
    assert.deepEqual(spec.overhead, { cpu: '250m', memory: '120Mi' });
    assert.deepEqual(spec.nodeSelector, { disk: 'ssd', sandbox: 'kata' });
    assert.deepEqual(spec.tolerations, [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }]);
    await plugin([kata]).validate(attrsFor('CREATE', obj), testContext);
  });

  it('refuses a different overhead, a conflicting selector, an unknown class and an overhead without a class', async () => {
    const p = plugin([kata]);
    await assert.rejects(p.admit(attrsFor('CREATE', pod('p', { runtimeClassName: 'kata', overhead: { cpu: '1' }, containers: [] })), testContext), {
      message: "pods \"p\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
    });
    await p.admit(attrsFor('CREATE', pod('p', { runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '120Mi' }, containers: [] })), testContext);
    await assert.rejects(p.admit(attrsFor('CREATE', pod('p', { runtimeClassName: 'kata', nodeSelector: { sandbox: 'gvisor' }, containers: [] })), testContext), {
      message: 'pods "p" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = kata; pod.spec.nodeSelector[sandbox] = gvisor',
    });
    await assert.rejects(p.admit(attrsFor('CREATE', pod('p', { runtimeClassName: 'nope', containers: [] })), testContext), {
      message: 'pods "p" is forbidden: pod rejected: RuntimeClass "nope" not found',
    });
    await assert.rejects(p.validate(attrsFor('CREATE', pod('p', { overhead: { cpu: '1' }, containers: [] })), testContext), {
      message: 'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
    });
  });

  it('reads a class the cache does not have yet from storage', async () => {
    const obj = pod('p', { runtimeClassName: 'kata', containers: [] });
    await plugin([], [kata]).admit(attrsFor('CREATE', obj), testContext);
    assert.deepEqual((obj as Pod).spec?.overhead, { cpu: '250m', memory: '120Mi' });
  });
});
