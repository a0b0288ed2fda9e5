import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta/types.js';
import type { Informer } from '../controllers/informer.js';
import { ResolveError, ServiceResolver } from './service-resolver.js';

function informer(objs: KubeObject[]): Informer {
  return {
    get: (key: string) => objs.find((o) => `${o.metadata.namespace}/${o.metadata.name}` === key),
    list: () => objs.values(),
  } as unknown as Informer;
}

const svc = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'w', name: 'api' }, spec }) as KubeObject;
const slice = (ready: boolean): KubeObject =>
  ({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { namespace: 'w', name: 'api-1', labels: { 'kubernetes.io/service-name': 'api' } },
    endpoints: [{ addresses: ['10.1.0.7'], conditions: { ready } }],
    ports: [{ name: 'https', port: 8443 }],
  }) as KubeObject;
const ref = { namespace: 'w', name: 'api', port: 443 };

describe('aggregator service resolution', () => {
  const clusterIP = svc({ type: 'ClusterIP', clusterIP: '10.0.0.9', ports: [{ name: 'https', port: 443, targetPort: 8443 }] });

  it('uses the cluster IP and service port, or with aggregator routing a ready endpoint', () => {
    assert.deepEqual(new ServiceResolver(informer([clusterIP]), informer([]), false).resolve(ref), { host: '10.0.0.9:443', serverName: 'api.w.svc' });
    assert.deepEqual(new ServiceResolver(informer([clusterIP]), informer([slice(true)]), true).resolve(ref), { host: '10.1.0.7:8443', serverName: 'api.w.svc' });
    assert.throws(() => new ServiceResolver(informer([clusterIP]), informer([slice(false)]), true).resolve(ref), { message: 'no endpoints available for service "api"' });
  });

  it('routes an ExternalName service to its name and refuses what kube refuses', () => {
    assert.deepEqual(new ServiceResolver(informer([svc({ type: 'ExternalName', externalName: 'api.example.com' })]), informer([]), false).resolve(ref), { host: 'api.example.com:443', serverName: 'api.w.svc' });
    assert.throws(() => new ServiceResolver(informer([]), informer([]), false).resolve(ref), ResolveError);
    assert.throws(() => new ServiceResolver(informer([svc({ type: 'ClusterIP', clusterIP: 'None', ports: [{ port: 443 }] })]), informer([]), false).resolve(ref), { message: 'cannot route to service with ClusterIP "None"' });
    assert.throws(() => new ServiceResolver(informer([svc({ type: 'ClusterIP', clusterIP: '10.0.0.9', ports: [{ port: 80 }] })]), informer([]), false).resolve(ref), { message: 'no service port 443 found for service "api"' });
  });
});
