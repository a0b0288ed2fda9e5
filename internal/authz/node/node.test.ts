import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import type { UserInfo } from '../../request/context.js';
import type { AuthorizationAttributes } from '../interface.js';
import { NodeAuthorizer, nodeIdentity } from './authorizer.js';
import { Graph } from './graph.js';
import { parseFieldSelector } from '../../selectors/fields.js';

/** A request's field selector as the authorization filter parses it. */
function fieldSelectorOf(raw: string): { requirements: ReturnType<typeof parseFieldSelector>['terms'] } {
  return { requirements: parseFieldSelector(raw).terms };
}
import { addNodeObject, addPod, addPV, deletePod, deletePV } from './object-edges.js';

const n1: UserInfo = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const n2: UserInfo = { name: 'system:node:n2', groups: ['system:nodes', 'system:authenticated'] };

function req(user: UserInfo, verb: string, resource: string, name = '', opts: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes {
  return { user, verb, isResourceRequest: true, path: '', namespace: 'ns', apiGroup: '', apiVersion: 'v1', resource, subresource: '', name, ...opts };
}

function pod(name: string, nodeName: string, spec: Record<string, unknown> = {}, extra: Partial<KubeObject> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', uid: `uid-${name}` }, spec: { nodeName, containers: [{ name: 'c', image: 'i' }], ...spec }, ...extra } as KubeObject;
}

const noRelation = (node: string) => ({ decision: 'NoOpinion', reason: `no relationship found between node '${node}' and this object` });

describe('node identity', () => {
  it('is system:node:<name> in group system:nodes only', () => {
    assert.equal(nodeIdentity(n1), 'n1');
    assert.equal(nodeIdentity({ name: 'system:node:n1', groups: [] }), undefined);
    assert.equal(nodeIdentity({ name: 'alice', groups: ['system:nodes'] }), undefined);
    assert.equal(nodeIdentity({ name: 'system:node:', groups: ['system:nodes'] }), '');
  });
});

describe('node graph', () => {
  it('relates every object a pod references (env, envFrom, volumes, projected, image pull secrets, claims, account) to its node only', () => {
    const g = new Graph();
    addPod(
      g,
      pod(
        'web',
        'n1',
        {
          serviceAccountName: 'sa',
          imagePullSecrets: [{ name: 'pull' }],
          initContainers: [{ name: 'i', image: 'i', envFrom: [{ secretRef: { name: 'init-env' } }] }],
          containers: [{ name: 'c', image: 'i', env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'k' } } }, { name: 'B', valueFrom: { configMapKeyRef: { name: 'env-cm', key: 'k' } } }], envFrom: [{ configMapRef: { name: 'from-cm' } }] }],
          ephemeralContainers: [{ name: 'e', image: 'i', envFrom: [{ secretRef: { name: 'debug-env' } }] }],
          volumes: [
            { name: 'v1', secret: { secretName: 'vol-secret' } },
            { name: 'v2', configMap: { name: 'vol-cm' } },
            { name: 'v3', projected: { sources: [{ secret: { name: 'proj-secret' } }, { configMap: { name: 'proj-cm' } }] } },
            { name: 'v4', persistentVolumeClaim: { claimName: 'data' } },
            { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } },
            { name: 'v5', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi-secret' } } },
          ],
          resourceClaims: [{ name: 'gpu', resourceClaimName: 'shared-gpu' }, { name: 'tpl', resourceClaimTemplateName: 't' }],
        },
        { status: { resourceClaimStatuses: [{ name: 'tpl', resourceClaimName: 'web-tpl-x1' }] } } as Partial<KubeObject>,
      ),
    );
    const secrets = ['pull', 'init-env', 'env-secret', 'debug-env', 'vol-secret', 'proj-secret', 'csi-secret'];
    for (const s of secrets) assert.ok(g.hasPathFrom('n1', 'secret', 'ns', s).found, s);
    for (const c of ['env-cm', 'from-cm', 'vol-cm', 'proj-cm']) assert.ok(g.hasPathFrom('n1', 'configmap', 'ns', c).found, c);
    assert.ok(g.hasPathFrom('n1', 'pvc', 'ns', 'data').found);
    assert.ok(g.hasPathFrom('n1', 'pvc', 'ns', 'web-scratch').found, 'ephemeral volume claim');
    assert.ok(g.hasPathFrom('n1', 'resourceclaim', 'ns', 'shared-gpu').found);
    assert.ok(g.hasPathFrom('n1', 'resourceclaim', 'ns', 'web-tpl-x1').found);
    assert.ok(g.hasPathFrom('n1', 'serviceaccount', 'ns', 'sa').found);
    assert.equal(g.hasPathFrom('n2', 'secret', 'ns', 'pull').found, false);
    assert.equal(g.hasPathFrom('n1', 'secret', 'other', 'pull').found, false);
  });
  it('a mirror pod grants nothing but itself', () => {
    const g = new Graph();
    addPod(g, pod('static', 'n1', { volumes: [{ name: 'v', secret: { secretName: 's' } }] }, { metadata: { name: 'static', namespace: 'ns', annotations: { 'kubernetes.io/config.mirror': 'x' } } }));
    assert.ok(g.hasPathFrom('n1', 'pod', 'ns', 'static').found);
    assert.equal(g.has('secret', 'ns', 's'), false);
  });
  it('deleting a pod forgets what only it referenced; shared objects stay for the other pod', () => {
    const g = new Graph();
    addPod(g, pod('a', 'n1', { volumes: [{ name: 'v', secret: { secretName: 'shared' } }, { name: 'w', secret: { secretName: 'only-a' } }] }));
    addPod(g, pod('b', 'n2', { volumes: [{ name: 'v', secret: { secretName: 'shared' } }] }));
    deletePod(g, 'ns', 'a');
    assert.equal(g.has('secret', 'ns', 'only-a'), false);
    assert.equal(g.has('node', '', 'n1'), false, 'a node without pods is unknown again');
    assert.equal(g.hasPathFrom('n1', 'secret', 'ns', 'shared').found, false);
    assert.ok(g.hasPathFrom('n2', 'secret', 'ns', 'shared').found);
    deletePod(g, 'ns', 'b');
    assert.equal(g.size(), 0);
  });
  it('follows pv -> pvc -> pod -> node, and a PV secret through the PV, never through another node', () => {
    const g = new Graph();
    addPV(g, { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1' }, spec: { claimRef: { namespace: 'ns', name: 'data' }, csi: { driver: 'd', volumeHandle: 'h', nodeStageSecretRef: { name: 'stage', namespace: 'secrets' }, controllerPublishSecretRef: { name: 'ctrl', namespace: 'secrets' } } } } as KubeObject);
    assert.equal(g.hasPathFrom('n1', 'pv', '', 'pv1').found, false, 'no pod uses the claim yet');
    addPod(g, pod('db', 'n1', { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] }));
    addPod(g, pod('other', 'n2', { volumes: [{ name: 'x', secret: { secretName: 'x' } }] }));
    assert.ok(g.hasPathFrom('n1', 'pv', '', 'pv1').found);
    assert.ok(g.hasPathFrom('n1', 'secret', 'secrets', 'stage').found);
    assert.equal(g.has('secret', 'secrets', 'ctrl'), false, "the controller's secret is not the kubelet's");
    assert.equal(g.hasPathFrom('n2', 'pv', '', 'pv1').found, false);
    deletePV(g, 'pv1');
    assert.equal(g.hasPathFrom('n1', 'secret', 'secrets', 'stage').found, false);
  });
});

describe('node authorizer', () => {
  const g = new Graph();
  addPod(g, pod('web', 'n1', { serviceAccountName: 'sa', volumes: [{ name: 'v', secret: { secretName: 'web-secret' } }, { name: 'c', configMap: { name: 'web-cm' } }, { name: 'd', persistentVolumeClaim: { claimName: 'data' } }] }));
  addPod(g, pod('api', 'n2', { volumes: [{ name: 'v', secret: { secretName: 'api-secret' } }] }));
  addNodeObject(g, 'volumeattachment', 'va1', 'n1');
  const a = new NodeAuthorizer(g);

  it('has no opinion on anyone but nodes, and refuses an unnamed node', () => {
    assert.deepEqual(a.authorize(req({ name: 'alice', groups: [] }, 'get', 'secrets', 'web-secret')), { decision: 'NoOpinion', reason: '' });
    assert.deepEqual(a.authorize(req({ name: 'system:node:', groups: ['system:nodes'] }, 'get', 'pods')), { decision: 'NoOpinion', reason: 'unknown node for user "system:node:"' });
  });
  it('secrets and config maps: read by name when related, nothing else', () => {
    assert.equal(a.authorize(req(n1, 'get', 'secrets', 'web-secret')).decision, 'Allow');
    assert.equal(a.authorize(req(n1, 'watch', 'configmaps', 'web-cm')).decision, 'Allow', 'a watch with metadata.name=');
    assert.deepEqual(a.authorize(req(n1, 'get', 'secrets', 'api-secret')), noRelation('n1'));
    assert.deepEqual(a.authorize(req(n1, 'get', 'secrets', 'unrelated')), noRelation('n1'));
    assert.deepEqual(a.authorize(req(n1, 'list', 'secrets')), { decision: 'NoOpinion', reason: 'No Object name found' });
    assert.deepEqual(a.authorize(req(n1, 'update', 'secrets', 'web-secret')), { decision: 'NoOpinion', reason: 'can only read resources of this type' });
    assert.deepEqual(a.authorize(req(n1, 'get', 'secrets', 'web-secret', { namespace: '' })), { decision: 'NoOpinion', reason: 'can only read namespaced object of this type' });
  });
  it('claims, volumes and attachments: get only', () => {
    assert.equal(a.authorize(req(n1, 'get', 'persistentvolumeclaims', 'data')).decision, 'Allow');
    assert.deepEqual(a.authorize(req(n1, 'list', 'persistentvolumeclaims', 'data')), { decision: 'NoOpinion', reason: 'can only get individual resources of this type' });
    assert.equal(a.authorize(req(n1, 'patch', 'persistentvolumeclaims', 'data', { subresource: 'status' })).decision, 'Allow');
    assert.equal(a.authorize(req(n1, 'get', 'volumeattachments', 'va1', { apiGroup: 'storage.k8s.io', namespace: '' })).decision, 'Allow');
    assert.deepEqual(a.authorize(req(n2, 'get', 'volumeattachments', 'va1', { apiGroup: 'storage.k8s.io', namespace: '' })), noRelation('n2'));
  });
  it('service account tokens only for its pods accounts', () => {
    assert.equal(a.authorize(req(n1, 'create', 'serviceaccounts', 'sa', { subresource: 'token' })).decision, 'Allow');
    assert.deepEqual(a.authorize(req(n2, 'create', 'serviceaccounts', 'sa', { subresource: 'token' })), noRelation('n2'));
    assert.deepEqual(a.authorize(req(n1, 'get', 'serviceaccounts', 'sa')), { decision: 'NoOpinion', reason: 'can only create tokens for individual service accounts' });
  });
  it('its own Node, lease and CSINode', () => {
    const cluster = { namespace: '' };
    assert.equal(a.authorize(req(n1, 'get', 'nodes', 'n1', cluster)).decision, 'Allow');
    assert.equal(a.authorize(req(n1, 'create', 'nodes', '', cluster)).decision, 'Allow');
    assert.equal(a.authorize(req(n1, 'patch', 'nodes', 'n1', { ...cluster, subresource: 'status' })).decision, 'Allow');
    assert.deepEqual(a.authorize(req(n1, 'get', 'nodes', 'n2', cluster)), { decision: 'NoOpinion', reason: "node 'n1' cannot read 'n2', only its own Node object" });
    assert.deepEqual(a.authorize(req(n1, 'list', 'nodes', '', cluster)), { decision: 'NoOpinion', reason: "node 'n1' cannot read all nodes, only its own Node object" });
    assert.equal(a.authorize(req(n1, 'delete', 'nodes', 'n1', cluster)).decision, 'NoOpinion');
    const lease = { apiGroup: 'coordination.k8s.io', namespace: 'kube-node-lease' };
    assert.equal(a.authorize(req(n1, 'update', 'leases', 'n1', lease)).decision, 'Allow');
    assert.deepEqual(a.authorize(req(n1, 'update', 'leases', 'n2', lease)), { decision: 'NoOpinion', reason: 'can only access node lease with the same name as the requesting node' });
    assert.deepEqual(a.authorize(req(n1, 'get', 'leases', 'n1', { ...lease, namespace: 'default' })), { decision: 'NoOpinion', reason: 'can only access leases in the "kube-node-lease" system namespace' });
    assert.deepEqual(a.authorize(req(n1, 'list', 'leases', '', lease)), { decision: 'NoOpinion', reason: 'can only get, create, update, patch, or delete a node lease' });
    assert.equal(a.authorize(req(n1, 'get', 'csinodes', 'n1', { apiGroup: 'storage.k8s.io', namespace: '' })).decision, 'Allow');
    assert.deepEqual(a.authorize(req(n1, 'get', 'csinodes', 'n2', { apiGroup: 'storage.k8s.io', namespace: '' })), { decision: 'NoOpinion', reason: 'can only access CSINode with the same name as the requesting node' });
  });
  it('pods: get its own, list and watch by spec.nodeName, mirror pods, status and evictions', () => {
    assert.equal(a.authorize(req(n1, 'get', 'pods', 'web')).decision, 'Allow');
    assert.deepEqual(a.authorize(req(n1, 'get', 'pods', 'api')), noRelation('n1'));
    assert.equal(a.authorize(req(n1, 'watch', 'pods', '', { namespace: '', fieldSelector: fieldSelectorOf('spec.nodeName=n1') })).decision, 'Allow');
    assert.equal(a.authorize(req(n1, 'list', 'pods', '', { namespace: '', fieldSelector: fieldSelectorOf('status.phase!=Succeeded,spec.nodeName==n1') })).decision, 'Allow');
    assert.deepEqual(a.authorize(req(n1, 'list', 'pods', '', { namespace: '', fieldSelector: fieldSelectorOf('spec.nodeName=n2') })), { decision: 'NoOpinion', reason: 'can only list/watch pods with spec.nodeName field selector' });
    assert.deepEqual(a.authorize(req(n1, 'list', 'pods', '', { namespace: '' })), { decision: 'NoOpinion', reason: 'can only list/watch pods with spec.nodeName field selector' });
    assert.equal(a.authorize(req(n1, 'create', 'pods')).decision, 'Allow');
    assert.equal(a.authorize(req(n1, 'patch', 'pods', 'web', { subresource: 'status' })).decision, 'Allow');
    assert.equal(a.authorize(req(n1, 'create', 'pods', 'web', { subresource: 'eviction' })).decision, 'Allow');
    assert.equal(a.authorize(req(n1, 'update', 'pods', 'web')).decision, 'NoOpinion');
  });
  it('the static node rules decide the rest', () => {
    assert.equal(a.authorize(req(n1, 'create', 'events')).decision, 'Allow');
    assert.equal(a.authorize(req(n1, 'list', 'services', '', { namespace: '' })).decision, 'Allow');
    assert.equal(a.authorize(req(n1, 'create', 'certificatesigningrequests', '', { apiGroup: 'certificates.k8s.io', namespace: '' })).decision, 'Allow');
    assert.equal(a.authorize(req(n1, 'create', 'tokenreviews', '', { apiGroup: 'authentication.k8s.io', namespace: '' })).decision, 'Allow');
    assert.equal(a.authorize(req(n1, 'delete', 'services', 'x')).decision, 'NoOpinion');
    assert.equal(a.authorize(req(n1, 'list', 'deployments', '', { apiGroup: 'apps' })).decision, 'NoOpinion');
  });
  it('rules: incomplete for nodes, empty and complete for everyone else', () => {
    assert.deepEqual(a.rulesFor(n1, 'ns'), { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' });
    assert.deepEqual(a.rulesFor({ name: 'alice', groups: [] }, 'ns'), { resourceRules: [], nonResourceRules: [], incomplete: false });
  });
});
