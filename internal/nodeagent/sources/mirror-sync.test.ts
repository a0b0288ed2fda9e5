import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { testAgentContext } from '../../../test/support/agent-context.js';
import type { ApiClient } from '../client/api-client.js';
import { MirrorSync } from './mirror-sync.js';

function fakeClient(calls: string[]): ApiClient {
  return {
    get: async (path: string) => {
      calls.push(`get ${path}`);
      return { metadata: { name: 'node-1', uid: 'node-uid' } };
    },
    create: async (path: string, body: KubeObject) => {
      calls.push(`create ${path} ${body.metadata.name} ${body.metadata.annotations?.['kubernetes.io/config.mirror']} ${JSON.stringify(body.metadata.ownerReferences)} uid=${body.metadata.uid ?? ''}`);
      return body;
    },
    delete: async (path: string, body: Record<string, unknown>) => {
      calls.push(`delete ${path} ${JSON.stringify(body)}`);
      return {};
    },
  } as unknown as ApiClient;
}

const staticPod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-node-1', namespace: 'default', uid: 'hash-1', annotations: { 'kubernetes.io/config.hash': 'hash-1' } },
  spec: { nodeName: 'node-1', containers: [] },
};
const mirrorOf = (hash: string, name = 'web-node-1'): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', uid: `m-${hash}`, annotations: { 'kubernetes.io/config.mirror': hash } } });

async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 50));
}

describe('mirror pod reconciliation', () => {
  it('creates missing mirrors once the API source listed, replaces outdated ones, deletes orphans only when every source synced', async () => {
    const calls: string[] = [];
    const state = { statics: [staticPod], mirrors: [] as KubeObject[], api: false, all: false };
    const sync = new MirrorSync(testAgentContext({ client: fakeClient(calls) }), {
      staticPods: () => state.statics,
      mirrors: () => state.mirrors,
      apiSynced: () => state.api,
      allSynced: () => state.all,
    });
    sync.trigger();
    await settle();
    assert.deepEqual(calls, [], 'nothing before the API source listed the existing mirrors');
    state.api = true;
    sync.trigger();
    await settle();
    assert.deepEqual(calls, [
      'get /api/v1/nodes/node-1',
      'create /api/v1/namespaces/default/pods web-node-1 hash-1 [{"apiVersion":"v1","kind":"Node","name":"node-1","uid":"node-uid","controller":true}] uid=',
    ]);
    calls.length = 0;
    state.mirrors = [mirrorOf('old'), mirrorOf('x', 'gone-node-1')];
    sync.trigger();
    await settle();
    assert.deepEqual(calls.slice(0, 1), ['delete /api/v1/namespaces/default/pods/web-node-1 {"apiVersion":"v1","kind":"DeleteOptions","gracePeriodSeconds":0,"preconditions":{"uid":"m-old"}}']);
    assert.equal(calls.length, 3, 'then a new mirror; the orphan waits for every source');
    calls.length = 0;
    state.mirrors = [mirrorOf('hash-1'), mirrorOf('x', 'gone-node-1')];
    state.all = true;
    sync.trigger();
    await settle();
    assert.deepEqual(calls, ['delete /api/v1/namespaces/default/pods/gone-node-1 {"apiVersion":"v1","kind":"DeleteOptions","gracePeriodSeconds":0,"preconditions":{"uid":"m-x"}}']);
    sync.stop();
  });
});
