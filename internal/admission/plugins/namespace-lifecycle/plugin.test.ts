import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes } from '../../interface.js';
import { NamespaceLifecycle } from './plugin.js';

const ctx = {} as RequestContext;

function attrs(operation: 'CREATE' | 'DELETE', resource: string, namespace: string, name: string): AdmissionAttributes {
  return {
    operation,
    group: '',
    version: 'v1',
    resource,
    subresource: '',
    kind: '',
    namespace,
    name,
    object: undefined,
    oldObject: undefined,
    dryRun: false,
    userInfo: { name: 'u', groups: [] },
    addAnnotation: () => undefined,
  };
}

function ns(name: string, terminating = false): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase: terminating ? 'Terminating' : 'Active' } };
}

describe('NamespaceLifecycle lookups', () => {
  it('answers from the cache when it has the namespace, from etcd when it does not', async () => {
    const calls: string[] = [];
    const cached = new Map([['a', ns('a')]]);
    const live = new Map([['a', ns('a')], ['b', ns('b')]]);
    const plugin = new NamespaceLifecycle(async (name, isLive) => {
      calls.push(`${name}:${isLive ? 'live' : 'cache'}`);
      return (isLive ? live : cached).get(name);
    });
    await plugin.validate(attrs('CREATE', 'configmaps', 'a', 'x'), ctx);
    await plugin.validate(attrs('CREATE', 'configmaps', 'b', 'x'), ctx);
    await assert.rejects(plugin.validate(attrs('CREATE', 'configmaps', 'c', 'x'), ctx), /namespaces "c" not found/);
    assert.deepEqual(calls, ['a:cache', 'b:cache', 'b:live', 'c:cache', 'c:live']);
  });

  it('reads etcd for 30 s after a namespace deletion is admitted, where the cache may still show it active', async () => {
    let now = 1_000_000;
    const cached = new Map([['a', ns('a')]]);
    const live = new Map([['a', ns('a', true)]]);
    const plugin = new NamespaceLifecycle(async (name, isLive) => (isLive ? live : cached).get(name), () => now);
    await plugin.validate(attrs('DELETE', 'namespaces', '', 'a'), ctx);
    await assert.rejects(plugin.validate(attrs('CREATE', 'configmaps', 'a', 'x'), ctx), /being terminated/);
    now += 31_000;
    await plugin.validate(attrs('CREATE', 'configmaps', 'a', 'x'), ctx); // the (stale) cache answers again
  });

  it('refuses deleting the immortal namespaces', async () => {
    const plugin = new NamespaceLifecycle(async () => undefined);
    await assert.rejects(plugin.validate(attrs('DELETE', 'namespaces', '', 'kube-system'), ctx), /may not be deleted/);
  });
});
