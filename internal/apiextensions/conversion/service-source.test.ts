import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { newNotFound } from '../../apierrors/factories.js';
import type { RestStorage } from '../../registry/interface.js';
import type { RequestContext } from '../../request/context.js';
import { storageAddressResolver, type StorageLookup } from './service-source.js';

function storageOf(objects: Record<string, KubeObject[]>): StorageLookup {
  return (group, resource) => {
    const items = objects[group ? `${resource}.${group}` : resource];
    if (!items) return undefined;
    const storage: RestStorage = {
      get: async (ctx: RequestContext, name: string) => {
        const found = items.find((o) => o.metadata.namespace === ctx.requestInfo.namespace && o.metadata.name === name);
        if (!found) throw newNotFound({ group, resource }, name);
        return found;
      },
      list: async (ctx: RequestContext, opts) => ({
        items: items.filter((o) => o.metadata.namespace === ctx.requestInfo.namespace && opts.labelSelector.matches(o.metadata.labels ?? {})),
        resourceVersion: '1',
      }),
    };
    return storage;
  };
}

const service = (spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'ns', name: 'hook' }, spec }) as KubeObject;
const slice = (service: string, ready: boolean, ip: string) =>
  ({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { namespace: 'ns', name: `${service}-${ip}`, labels: { 'kubernetes.io/service-name': service } }, endpoints: [{ addresses: [ip], conditions: { ready } }], ports: [{ name: '', port: 9443 }] }) as KubeObject;

describe('conversion webhook service resolution from storage', () => {
  it('routes to a ready EndpointSlice endpoint of the service when it has no Endpoints', async () => {
    const r = storageAddressResolver(
      storageOf({ services: [service({ ports: [{ port: 443 }] })], endpoints: [], 'endpointslices.discovery.k8s.io': [slice('hook', false, '10.0.0.1'), slice('hook', true, '10.0.0.2'), slice('other', true, '10.0.0.3')] }),
      'endpoint',
    );
    assert.deepEqual(await r.resolve('ns', 'hook', 443), { host: '10.0.0.2', port: 9443 });
    await assert.rejects(r.resolve('ns', 'hook', 8443), { message: 'no service port 8443 found for service "hook"' });
  });

  it('routes to the cluster IP with cluster-ip routing, refusing headless services as kube does', async () => {
    const r = storageAddressResolver(storageOf({ services: [service({ clusterIP: '10.96.0.7', ports: [{ port: 443 }] })] }), 'cluster-ip');
    assert.deepEqual(await r.resolve('ns', 'hook', 443), { host: '10.96.0.7', port: 443 });
    const headless = storageAddressResolver(storageOf({ services: [service({ clusterIP: 'None', ports: [{ port: 443 }] })] }), 'cluster-ip');
    await assert.rejects(headless.resolve('ns', 'hook', 443), { message: 'cannot route to service with ClusterIP "None"' });
    await assert.rejects(headless.resolve('ns', 'gone', 443), { message: 'service "gone" not found' });
  });
});
