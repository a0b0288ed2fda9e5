import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EndpointsAdapter } from './endpoints-adapter.js';
import { InstanceCountEndpointReconciler } from './instance-count-reconciler.js';

/** An adapter over an in-memory address set. */
function fakeAdapter(initial: string[]): { adapter: EndpointsAdapter; ips: () => string[] } {
  let current = new Set(initial);
  const adapter = {
    get: async () => new Set(current),
    sync: async (ips: Iterable<string>) => {
      current = new Set(ips);
    },
  } as unknown as EndpointsAdapter;
  return { adapter, ips: () => [...current].sort() };
}

const ports = [{ name: 'https', port: 6443, protocol: 'TCP' }];

describe('master-count endpoint reconciler', () => {
  it('adds its own address and trims the ones after it (wrapping) down to the count', async () => {
    const f = fakeAdapter(['10.0.0.1', '10.0.0.3', '10.0.0.4']);
    await new InstanceCountEndpointReconciler(f.adapter, 2).reconcile('10.0.0.3', ports, true);
    assert.deepEqual(f.ips(), ['10.0.0.1', '10.0.0.3']);
    const g = fakeAdapter(['10.0.0.1', '10.0.0.2']);
    await new InstanceCountEndpointReconciler(g.adapter, 2).reconcile('10.0.0.9', ports, true);
    assert.deepEqual(g.ips(), ['10.0.0.2', '10.0.0.9']);
  });

  it('removes its own address at shutdown, and reconciles no more once stopped', async () => {
    const f = fakeAdapter(['10.0.0.1', '10.0.0.2']);
    const r = new InstanceCountEndpointReconciler(f.adapter, 2);
    r.stopReconciling();
    await r.reconcile('10.0.0.3', ports, true);
    assert.deepEqual(f.ips(), ['10.0.0.1', '10.0.0.2']);
    await r.remove('10.0.0.2', ports);
    assert.deepEqual(f.ips(), ['10.0.0.1']);
  });
});
