import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../../apierrors/status-error.js';
import { testAttributes } from '../testing/attributes.js';
import { NamespaceAutoProvision } from '../namespace-autoprovision/plugin.js';
import { NamespaceExists } from './plugin.js';

describe('NamespaceExists', () => {
  it('asks the cache, then storage, and answers 404 for a missing namespace', async () => {
    const calls: string[] = [];
    const live = new Set(['a', 'b']);
    const plugin = new NamespaceExists(async (name, isLive) => {
      calls.push(`${name}:${isLive}`);
      return (isLive ? live.has(name) : name === 'a') ? { metadata: { name } } : undefined;
    });
    await plugin.validate(testAttributes({ namespace: 'a' }));
    await plugin.validate(testAttributes({ namespace: 'b', operation: 'UPDATE' }));
    await assert.rejects(plugin.validate(testAttributes({ namespace: 'c', operation: 'DELETE' })), (err: any) => err.code === 404 && err.message === 'namespaces "c" not found');
    await plugin.validate(testAttributes({ namespace: '', resource: 'nodes' }));
    assert.deepEqual(calls, ['a:false', 'b:false', 'b:true', 'c:false', 'c:true']);
  });
});

describe('NamespaceAutoProvision', () => {
  it('creates a missing namespace, not on dry run, tolerating a concurrent create', async () => {
    const created: string[] = [];
    const existing = new Set(['a']);
    const plugin = new NamespaceAutoProvision({
      exists: async (n) => existing.has(n),
      create: async (n) => {
        created.push(n);
        if (n === 'race') throw new StatusError(409, 'AlreadyExists', 'exists');
        if (n === 'bad') throw new Error('etcd down');
      },
    });
    await plugin.admit(testAttributes({ namespace: 'a' }));
    await plugin.admit(testAttributes({ namespace: 'new', dryRun: true }));
    await plugin.admit(testAttributes({ namespace: 'new' }));
    await plugin.admit(testAttributes({ namespace: 'race' }));
    await assert.rejects(plugin.admit(testAttributes({ namespace: 'bad' })), /configmaps "x" is forbidden: etcd down/);
    assert.deepEqual(created, ['new', 'race', 'bad']);
  });
});
