import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import type { AuthorizationAttributes, Authorizer } from '../../authz/interface.js';
import { createCsrPem, generateKeyPem } from '../../nodeagent/certificate/csr.js';
import { approvalFor } from './approver.js';

/** An authorizer allowing exactly the given user/subresource pairs, recording what it was asked. */
function authorizer(allowed: ReadonlyArray<readonly [string, string]>): Authorizer & { asked: AuthorizationAttributes[] } {
  const asked: AuthorizationAttributes[] = [];
  return {
    name: 'test',
    asked,
    authorize(a) {
      asked.push(a);
      const ok = allowed.some(([user, sub]) => user === a.user.name && sub === a.subresource);
      return { decision: ok ? 'Allow' : 'NoOpinion', reason: '' };
    },
  };
}

async function csr(cn: string, org: string, username: string, extra: Record<string, unknown> = {}): Promise<KubeObject> {
  const { pem } = await createCsrPem(await generateKeyPem(), { commonName: cn, organizations: [org] });
  return {
    metadata: { name: 'node-csr-x' },
    spec: { request: Buffer.from(pem).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'], username, groups: ['system:bootstrappers', 'system:authenticated'], ...extra },
  };
}

describe('csrapproving', () => {
  it('approves a bootstrap request when the requester may create nodeclient', async () => {
    const a = authorizer([['system:bootstrap:abc', 'nodeclient']]);
    assert.equal(await approvalFor(await csr('system:node:n1', 'system:nodes', 'system:bootstrap:abc'), a), 'Auto approving kubelet client certificate after SubjectAccessReview.');
    const asked = a.asked[0] as AuthorizationAttributes;
    assert.equal(asked.verb, 'create');
    assert.equal(asked.apiGroup, 'certificates.k8s.io');
    assert.equal(asked.resource, 'certificatesigningrequests');
    assert.deepEqual(asked.user.groups, ['system:bootstrappers', 'system:authenticated']);
  });

  it('approves a renewal as selfnodeclient only when the CN is the requester', async () => {
    const a = authorizer([['system:node:n1', 'selfnodeclient']]);
    assert.equal(await approvalFor(await csr('system:node:n1', 'system:nodes', 'system:node:n1'), a), 'Auto approving self kubelet client certificate after SubjectAccessReview.');
    assert.equal(await approvalFor(await csr('system:node:n2', 'system:nodes', 'system:node:n1'), a), undefined, "another node's certificate is not self");
  });

  it('leaves alone what is not a kubelet client request, or already decided, or not permitted', async () => {
    const a = authorizer([['u', 'nodeclient']]);
    assert.equal(await approvalFor(await csr('system:node:n1', 'other-org', 'u'), a), undefined);
    assert.equal(await approvalFor(await csr('alice', 'system:nodes', 'u'), a), undefined);
    assert.equal(await approvalFor(await csr('system:node:n1', 'system:nodes', 'u', { usages: ['server auth'] }), a), undefined);
    assert.equal(await approvalFor(await csr('system:node:n1', 'system:nodes', 'u', { signerName: 'kubernetes.io/kube-apiserver-client' }), a), undefined);
    const denied = { ...(await csr('system:node:n1', 'system:nodes', 'u')), status: { conditions: [{ type: 'Denied', status: 'True' }] } };
    assert.equal(await approvalFor(denied, a), undefined);
    assert.equal(await approvalFor(await csr('system:node:n1', 'system:nodes', 'nobody'), a), undefined);
  });
});
