import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { uniquePrefix, useEtcd } from '../../../test/support/etcd.js';
import { createLogger } from '../../observability/logging.js';
import { deleteOptions, requestContext } from '../../registry/core/shared/testing.js';
import { persistentVolumesModule } from '../../registry/core/persistentvolumes/store.js';
import { podsModule } from '../../registry/core/pods/store.js';
import type { RestStorage } from '../../registry/interface.js';
import type { ResourceRegistration } from '../../registry/registration.js';
import { createVia } from '../../registry/shared/testing.js';
import { volumeAttachmentsModule } from '../../registry/storage/volumeattachments/store.js';
import { jsonCodec } from '../../storage/codec.js';
import { Etcd3Store } from '../../storage/etcd3/store.js';
import type { AuthorizationAttributes, AuthorizationDecision } from '../interface.js';
import { NodeAuthorizer } from './authorizer.js';
import { GraphPopulator } from './graph-populator.js';

const fx = useEtcd();
const log = createLogger(0, true);
const nodeUser = (n: string) => ({ name: `system:node:${n}`, groups: ['system:nodes', 'system:authenticated'] });

function get(node: string, resource: string, name: string, namespace = 'ns', apiGroup = ''): AuthorizationAttributes {
  return { user: nodeUser(node), verb: 'get', isResourceRequest: true, path: '', namespace, apiGroup, apiVersion: 'v1', resource, subresource: '', name };
}

async function eventually(check: () => AuthorizationDecision, decision: string, ms = 5000): Promise<AuthorizationDecision> {
  const deadline = Date.now() + ms;
  for (;;) {
    const d = check();
    if (d.decision === decision || Date.now() > deadline) return d;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('node authorizer over informers (etcd)', () => {
  let regs: ResourceRegistration[];
  let populator: GraphPopulator;
  let authz: NodeAuthorizer;

  before(async () => {
    const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('node-authz'), codec: jsonCodec });
    const deps = { storage, serviceClusterIPRange: '10.0.0.0/24' };
    regs = [...podsModule(deps), ...persistentVolumesModule(deps), ...volumeAttachmentsModule(deps)];
    const storageOf = (group: string, resource: string): RestStorage | undefined => regs.find((r) => r.group === group && r.resource === resource)?.main;
    // A pod that exists before the informers start is in the graph once they have synced.
    await createVia(reg('pods'), { metadata: { name: 'early' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'v', configMap: { name: 'early-cm' } }] } } as KubeObject);
    populator = new GraphPopulator(storageOf, log);
    await populator.start();
    authz = new NodeAuthorizer(populator.graph);
  });
  after(() => populator?.stop());

  function reg(resource: string): ResourceRegistration {
    return regs.find((r) => r.resource === resource && (r.version === 'v1')) as ResourceRegistration;
  }

  it('knows pods that existed before it started', () => {
    assert.equal(authz.authorize({ ...get('n1', 'configmaps', 'early-cm') }).decision, 'Allow');
  });

  it("allows a pod's secret to its node only, and forgets it when the pod is deleted", async () => {
    const noRelation = { decision: 'NoOpinion', reason: "no relationship found between node 'n1' and this object" };
    assert.deepEqual(authz.authorize(get('n1', 'secrets', 'db-password')), noRelation);
    await createVia(reg('pods'), {
      metadata: { name: 'db' },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i', env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'db-password', key: 'p' } } }] }] },
    } as KubeObject);
    await createVia(reg('pods'), { metadata: { name: 'cache' }, spec: { nodeName: 'n2', containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 's', secret: { secretName: 'cache-secret' } }] } } as KubeObject);
    assert.equal((await eventually(() => authz.authorize(get('n1', 'secrets', 'db-password')), 'Allow')).decision, 'Allow');
    assert.equal((await eventually(() => authz.authorize(get('n2', 'pods', 'cache')), 'Allow')).decision, 'Allow');
    assert.deepEqual(authz.authorize(get('n1', 'secrets', 'unrelated')), noRelation);
    assert.deepEqual(authz.authorize(get('n1', 'secrets', 'cache-secret')), noRelation, "another node's pod's secret");
    assert.deepEqual(authz.authorize(get('n1', 'pods', 'cache')), noRelation, "another node's pod");
    assert.equal(authz.authorize(get('n2', 'secrets', 'db-password')).decision, 'NoOpinion');

    const pods = reg('pods').main;
    await pods.delete?.(requestContext('DELETE', '/api/v1/namespaces/ns/pods/db'), 'db', deleteOptions({ gracePeriodSeconds: 0 }));
    assert.deepEqual(await eventually(() => authz.authorize(get('n1', 'secrets', 'db-password')), 'NoOpinion'), noRelation);
  });

  it('relates a bound persistent volume and a volume attachment to the node of the pod using them', async () => {
    await createVia(reg('persistentvolumes'), {
      metadata: { name: 'pv-data' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/x' }, claimRef: { namespace: 'ns', name: 'data' } },
    } as KubeObject);
    await createVia(reg('volumeattachments'), {
      metadata: { name: 'va-data' },
      spec: { attacher: 'csi.example.com', nodeName: 'n3', source: { persistentVolumeName: 'pv-data' } },
    } as KubeObject);
    await createVia(reg('pods'), { metadata: { name: 'app' }, spec: { nodeName: 'n3', containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] } } as KubeObject);
    assert.equal((await eventually(() => authz.authorize(get('n3', 'persistentvolumes', 'pv-data', '')), 'Allow')).decision, 'Allow');
    assert.equal(authz.authorize(get('n3', 'persistentvolumeclaims', 'data')).decision, 'Allow');
    assert.equal((await eventually(() => authz.authorize(get('n3', 'volumeattachments', 'va-data', '', 'storage.k8s.io')), 'Allow')).decision, 'Allow');
    assert.equal(authz.authorize(get('n2', 'persistentvolumes', 'pv-data', '')).decision, 'NoOpinion');
  });
});
