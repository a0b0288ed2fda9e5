import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { attrsFor, FakeInformer, pod, testContext } from '../pod-shared/fakes.js';
import type { Pod } from '../pod-shared/pod-types.js';
import { PodTolerationRestriction, tolerationRestrictionConfig } from './plugin.js';

const ns = (annotations: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns', annotations } });
const config = (c: Record<string, unknown> = {}) => tolerationRestrictionConfig({ apiVersion: 'podtolerationrestriction.admission.k8s.io/v1alpha1', kind: 'Configuration', ...c });
const plugin = (n: KubeObject, c = config()) => new PodTolerationRestriction(new FakeInformer([n]).asInformer(), async () => undefined, c);
const gpu = { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' };
const memoryPressure = { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' };

describe('PodTolerationRestriction', () => {
  it("merges the namespace's default tolerations on create, and memory-pressure for non-BestEffort pods", async () => {
    const p = plugin(ns({ 'scheduler.alpha.kubernetes.io/defaultTolerations': JSON.stringify([gpu]) }));
    const obj = pod('p', { containers: [{ name: 'c', image: 'x', resources: { requests: { memory: '1Gi' } } }] });
    await p.admit(attrsFor('CREATE', obj), testContext);
    assert.deepEqual((obj as Pod).spec?.tolerations, [gpu, memoryPressure]);
    const best = pod('p', { containers: [{ name: 'c', image: 'x' }] });
    await p.admit(attrsFor('UPDATE', best), testContext);
    assert.equal((best as Pod).spec?.tolerations, undefined);
  });

  it('falls back to the configured cluster default', async () => {
    const obj = pod('p', { containers: [] });
    await plugin(ns(), config({ default: [gpu] })).admit(attrsFor('CREATE', obj), testContext);
    assert.deepEqual((obj as Pod).spec?.tolerations, [gpu]);
  });

  it('refuses tolerations outside the namespace whitelist, else the cluster one', async () => {
    const other = { key: 'other', operator: 'Exists', effect: 'NoSchedule' };
    const p = plugin(ns({ 'scheduler.alpha.kubernetes.io/tolerationsWhitelist': JSON.stringify([gpu]) }));
    await p.validate(attrsFor('CREATE', pod('p', { tolerations: [gpu], containers: [] })), testContext);
    await assert.rejects(p.validate(attrsFor('CREATE', pod('p', { tolerations: [other], containers: [] })), testContext), {
      message: 'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist',
    });
    await assert.rejects(plugin(ns(), config({ whitelist: [gpu] })).validate(attrsFor('CREATE', pod('p', { tolerations: [other], containers: [] })), testContext), {
      message: 'pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist',
    });
  });

  it('refuses a configuration of another kind', () => {
    assert.throws(() => tolerationRestrictionConfig({ apiVersion: 'v1', kind: 'Pod' }), /unexpected type/);
  });
});
