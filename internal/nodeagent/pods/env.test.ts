import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ConfigObjects } from './config-objects.js';
import { makeEnvironment } from './env.js';
import type { Container, Pod } from './types.js';

const objects: ConfigObjects = {
  configMap: async (_ns, name) => (name === 'cm' ? new Map([['a', Buffer.from('1')], ['b', Buffer.from('2')]]) : undefined),
  secret: async (_ns, name) => (name === 's' ? new Map([['pw', Buffer.from('x')]]) : undefined),
};
const pod: Pod = { metadata: { name: 'p', namespace: 'ns', uid: 'u1', annotations: { team: 'blue' } }, spec: { nodeName: 'n1', serviceAccountName: 'sa', containers: [] } };
const rt = { podIPs: ['10.1.0.2', 'fd00::2'], hostIPs: ['192.0.2.1'] };
const env = async (c: Partial<Container>, svc = new Map<string, string>()) => Object.fromEntries((await makeEnvironment(pod, { name: 'c', ...c }, objects, rt, svc)).map((e) => [e.key, e.value]));

describe('container environment', () => {
  it('envFrom with prefix first, then env in order with $(VAR) over what came before and the service variables', async () => {
    const out = await env(
      {
        envFrom: [{ prefix: 'CM_', configMapRef: { name: 'cm' } }, { secretRef: { name: 'gone', optional: true } }],
        env: [
          { name: 'X', value: '$(CM_a)-$(Y)-$(KUBERNETES_SERVICE_HOST)' },
          { name: 'Y', value: 'y' },
          { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
          { name: 'IPS', valueFrom: { fieldRef: { fieldPath: 'status.podIPs' } } },
          { name: 'TEAM', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['team']" } } },
          { name: 'SA', valueFrom: { fieldRef: { fieldPath: 'spec.serviceAccountName' } } },
          { name: 'PW', valueFrom: { secretKeyRef: { name: 's', key: 'pw' } } },
        ],
      },
      new Map([['KUBERNETES_SERVICE_HOST', '10.0.0.1']]),
    );
    assert.deepEqual(out, { KUBERNETES_SERVICE_HOST: '10.0.0.1', CM_a: '1', CM_b: '2', X: '1-$(Y)-10.0.0.1', Y: 'y', NODE: 'n1', IPS: '10.1.0.2,fd00::2', TEAM: 'blue', SA: 'sa', PW: 'x' });
  });
  it("fails with kubelet's CreateContainerConfigError messages", async () => {
    await assert.rejects(env({ env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'cm', key: 'zz' } } }] }), { message: "couldn't find key zz in ConfigMap ns/cm" });
    await assert.rejects(env({ env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'zz' } } }] }), { message: "couldn't find key zz in Secret ns/s" });
    await assert.rejects(env({ env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'none', key: 'a' } } }] }), { message: 'configmap "none" not found' });
    await assert.rejects(env({ envFrom: [{ secretRef: { name: 'none' } }] }), { message: 'secret "none" not found' });
    await assert.rejects(env({ env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'spec.bogus' } } }] }), { message: 'unsupported fieldPath: spec.bogus' });
    assert.deepEqual(await env({ env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'none', key: 'a', optional: true } } }] }), {});
  });
});
