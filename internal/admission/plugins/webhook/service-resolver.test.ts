import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { SharedInformers } from '../../../controllers/shared-informers.js';
import { ServiceResolver } from './service-resolver.js';

function informers(objects: Record<string, KubeObject[]>): SharedInformers {
  return {
    get(group: string, resource: string) {
      const items = objects[`${resource}.${group}`] ?? [];
      return {
        hasSynced: () => true,
        synced: Promise.resolve(),
        get: (key: string) => items.find((o) => `${o.metadata.namespace}/${o.metadata.name}` === key),
        list: () => items.values(),
      };
    },
  } as unknown as SharedInformers;
}

const svc = (spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'ns', name: 'hook' }, spec }) as KubeObject;

describe('webhook service resolution', () => {
  it('dials an Endpoints address on the target port named like the service port', async () => {
    const r = new ServiceResolver(
      informers({
        'services.': [svc({ ports: [{ name: 'https', port: 443 }] })],
        'endpoints.': [{ apiVersion: 'v1', kind: 'Endpoints', metadata: { namespace: 'ns', name: 'hook' }, subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ name: 'https', port: 8443 }] }] } as KubeObject],
      }),
    );
    assert.deepEqual(await r.resolve('ns', 'hook', 443), { host: '10.1.2.3', port: 8443 });
    await assert.rejects(r.resolve('ns', 'hook', 444), { message: 'no service port 444 found for service "hook"' });
    await assert.rejects(r.resolve('ns', 'other', 443), { message: 'service "other" not found' });
  });

  it('falls back to ready EndpointSlice endpoints; says when there are none', async () => {
    const slice = (ready: boolean) => ({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { namespace: 'ns', name: 'hook-x', labels: { 'kubernetes.io/service-name': 'hook' } }, endpoints: [{ addresses: ['10.9.9.9'], conditions: { ready } }], ports: [{ name: '', port: 9443 }] }) as KubeObject;
    const ok = new ServiceResolver(informers({ 'services.': [svc({ ports: [{ port: 443 }] })], 'endpointslices.discovery.k8s.io': [slice(true)] }));
    assert.deepEqual(await ok.resolve('ns', 'hook', 443), { host: '10.9.9.9', port: 9443 });
    const none = new ServiceResolver(informers({ 'services.': [svc({ ports: [{ port: 443 }] })], 'endpointslices.discovery.k8s.io': [slice(false)] }));
    await assert.rejects(none.resolve('ns', 'hook', 443), { message: 'no endpoints available for service "hook"' });
    const ext = new ServiceResolver(informers({ 'services.': [svc({ type: 'ExternalName', externalName: 'hooks.example.com' })] }));
    assert.deepEqual(await ext.resolve('ns', 'hook', 443), { host: 'hooks.example.com', port: 443 });
  });
});
