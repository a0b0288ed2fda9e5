import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { defaultService } from './defaults.js';

const svc = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject => ({ metadata: { name: 's' }, spec, ...extra });

describe('defaultService (SetDefaults_Service)', () => {
  it('fills a minimal ClusterIP service', () => {
    const obj = svc({ selector: { app: 'a' }, ports: [{ port: 80 }] });
    defaultService(obj);
    assert.deepEqual(obj.spec, {
      selector: { app: 'a' },
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
    });
  });

  it('keeps a named or numbered targetPort and an explicit protocol', () => {
    const obj = svc({ ports: [{ port: 53, protocol: 'UDP', targetPort: 'dns' }, { port: 80, targetPort: 8080 }, { port: 81, targetPort: '' }] });
    defaultService(obj);
    assert.deepEqual((obj.spec as { ports: unknown[] }).ports, [
      { port: 53, protocol: 'UDP', targetPort: 'dns' },
      { port: 80, protocol: 'TCP', targetPort: 8080 },
      { port: 81, protocol: 'TCP', targetPort: 81 },
    ]);
  });

  it('defaults the external policies of NodePort and LoadBalancer services and LB ingress ipMode', () => {
    const lb = svc({ type: 'LoadBalancer', ports: [{ port: 443 }] }, { status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }, { hostname: 'lb.example.com' }] } } });
    defaultService(lb);
    assert.deepEqual(lb.spec, {
      type: 'LoadBalancer',
      ports: [{ port: 443, protocol: 'TCP', targetPort: 443 }],
      sessionAffinity: 'None',
      externalTrafficPolicy: 'Cluster',
      internalTrafficPolicy: 'Cluster',
      allocateLoadBalancerNodePorts: true,
    });
    assert.deepEqual(lb.status, { loadBalancer: { ingress: [{ ip: '1.2.3.4', ipMode: 'VIP' }, { hostname: 'lb.example.com' }] } });
    const np = svc({ type: 'NodePort', ports: [{ port: 80 }] });
    defaultService(np);
    assert.equal((np.spec as Record<string, unknown>).externalTrafficPolicy, 'Cluster');
    assert.equal((np.spec as Record<string, unknown>).allocateLoadBalancerNodePorts, undefined);
    const external = svc({ ports: [{ port: 80 }], externalIPs: ['192.0.2.1'] });
    defaultService(external);
    assert.equal((external.spec as Record<string, unknown>).externalTrafficPolicy, 'Cluster');
  });

  it('gives ExternalName services no traffic policies and no cluster IP fields', () => {
    const obj = svc({ type: 'ExternalName', externalName: 'example.com' });
    defaultService(obj);
    assert.deepEqual(obj.spec, { type: 'ExternalName', externalName: 'example.com', sessionAffinity: 'None' });
  });

  it('gives ClientIP affinity a three-hour timeout and drops the config for None', () => {
    const client = svc({ sessionAffinity: 'ClientIP', ports: [{ port: 80 }] });
    defaultService(client);
    assert.deepEqual((client.spec as Record<string, unknown>).sessionAffinityConfig, { clientIP: { timeoutSeconds: 10800 } });
    const kept = svc({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } });
    defaultService(kept);
    assert.deepEqual((kept.spec as Record<string, unknown>).sessionAffinityConfig, { clientIP: { timeoutSeconds: 60 } });
    const none = svc({ sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } });
    defaultService(none);
    assert.equal((none.spec as Record<string, unknown>).sessionAffinityConfig, undefined);
  });

  it('is idempotent and leaves ipFamilies and ipFamilyPolicy to allocation', () => {
    const obj = svc({ ports: [{ port: 80 }] });
    defaultService(obj);
    const once = structuredClone(obj);
    defaultService(obj);
    assert.deepEqual(obj, once);
    assert.equal((obj.spec as Record<string, unknown>).ipFamilyPolicy, undefined);
    assert.equal((obj.spec as Record<string, unknown>).ipFamilies, undefined);
  });
});
