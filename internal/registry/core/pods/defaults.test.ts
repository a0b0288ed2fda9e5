import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Storage } from '../../../storage/interface.js';
import { deploymentsModule } from '../../apps/deployments/store.js';
import { defaultDeployment } from '../../apps/deployments/defaults.js';
import { endpointsModule } from '../endpoints/store.js';
import { defaultEndpoints } from '../endpoints/defaults.js';
import { nodesModule } from '../nodes/store.js';
import { defaultNode } from '../nodes/defaults.js';
import { secretsModule } from '../secrets/store.js';
import { defaultSecret } from '../secrets/defaults.js';
import { servicesModule } from '../services/store.js';
import { defaultService } from '../services/defaults.js';
import { defaultPodObject } from './defaults.js';
import { podsModule } from './store.js';

describe('defaultPodObject', () => {
  it('defaults a Pod body, spec included', () => {
    const obj: KubeObject = { metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'busybox:latest', resources: { limits: { memory: '128Mi' } } }] } };
    defaultPodObject(obj);
    const spec = obj.spec as { containers: Array<Record<string, unknown>> } & Record<string, unknown>;
    assert.equal(spec.containers[0]?.imagePullPolicy, 'Always');
    assert.deepEqual(spec.containers[0]?.resources, { limits: { memory: '128Mi' }, requests: { memory: '128Mi' } });
    assert.equal(spec.enableServiceLinks, true);
    assert.equal(spec.schedulerName, 'default-scheduler');
  });
});

describe('registrations carry their defaulters', () => {
  // Building a registration touches no storage, so a stand-in is enough.
  const deps = { storage: {} as Storage, serviceClusterIPRange: '10.0.0.0/24' };
  const cases = [
    ['pods', podsModule, defaultPodObject],
    ['services', servicesModule, defaultService],
    ['deployments', deploymentsModule, defaultDeployment],
    ['secrets', secretsModule, defaultSecret],
    ['endpoints', endpointsModule, defaultEndpoints],
    ['nodes', nodesModule, defaultNode],
  ] as const;
  for (const [name, mod, defaulter] of cases) {
    it(name, () => {
      const [reg] = mod(deps);
      assert.equal(reg?.defaulter, defaulter);
    });
  }

  it('pods serve pods/ephemeralcontainers', () => {
    const [reg] = podsModule(deps);
    assert.ok(reg?.subresources.ephemeralcontainers?.update);
  });
});
