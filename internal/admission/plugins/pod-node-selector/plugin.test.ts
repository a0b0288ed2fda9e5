import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { attrsFor, FakeInformer, pod, testContext } from '../pod-shared/fakes.js';
import type { Pod } from '../pod-shared/pod-types.js';
import { PodNodeSelector, podNodeSelectorConfig } from './plugin.js';

const ns = (name: string, selector?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, ...(selector !== undefined ? { annotations: { 'scheduler.alpha.kubernetes.io/node-selector': selector } } : {}) },
});

function plugin(namespaces: KubeObject[], config: unknown = undefined): PodNodeSelector {
  return new PodNodeSelector(new FakeInformer(namespaces).asInformer(), async () => undefined, podNodeSelectorConfig(config));
}

describe('PodNodeSelector', () => {
  it("merges the namespace's selector into the pod's, else the cluster default", async () => {
    const obj = pod('p', { nodeSelector: { disk: 'ssd' }, containers: [] });
    await plugin([ns('ns', 'env=prod, team=a')]).admit(attrsFor('CREATE', obj), testContext);
    assert.deepEqual((obj as Pod).spec?.nodeSelector, { env: 'prod', team: 'a', disk: 'ssd' });
    const dflt = pod('p', { containers: [] });
    await plugin([ns('ns')], { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'pool=general' } }).admit(attrsFor('CREATE', dflt), testContext);
    assert.deepEqual((dflt as Pod).spec?.nodeSelector, { pool: 'general' });
    const empty = pod('p', { containers: [] });
    await plugin([ns('ns', '')], { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'pool=general' } }).admit(attrsFor('CREATE', empty), testContext);
    assert.equal((empty as Pod).spec?.nodeSelector, undefined, 'an empty annotation overrides the cluster default');
  });

  it('refuses a conflicting selector and labels outside the namespace whitelist', async () => {
    await assert.rejects(plugin([ns('ns', 'env=prod')]).admit(attrsFor('CREATE', pod('p', { nodeSelector: { env: 'dev' }, containers: [] })), testContext), {
      message: 'pods "p" is forbidden: pod node label selector conflicts with its namespace node label selector',
    });
    const p = plugin([ns('ns', 'env=prod')], { podNodeSelectorPluginConfig: { ns: 'env=prod,disk=ssd' } });
    await p.admit(attrsFor('CREATE', pod('p', { nodeSelector: { disk: 'ssd' }, containers: [] })), testContext);
    await assert.rejects(p.admit(attrsFor('CREATE', pod('p', { nodeSelector: { gpu: 'yes' }, containers: [] })), testContext), {
      message: 'pods "p" is forbidden: pod node label selector labels conflict with its namespace whitelist',
    });
  });

  it('fails a malformed namespace selector as kube does (500)', async () => {
    await assert.rejects(plugin([ns('ns', 'env=prod=x')]).admit(attrsFor('CREATE', pod('p', { containers: [] })), testContext), (err: Error & { status?: { code?: number } }) => {
      assert.equal(err.status?.code, 500);
      assert.equal(err.message, 'invalid selector: [env prod x]');
      return true;
    });
  });
});
