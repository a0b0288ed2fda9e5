import 'reflect-metadata';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { describe, it } from 'node:test';
import { Pkcs10CertificateRequestGenerator } from '@peculiar/x509';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { AuthorizationAttributes, Authorizer } from '../../../authz/interface.js';
import { testAttributes } from '../testing/attributes.js';
import { CertificateApproval } from './certificate-approval.js';
import { CertificateSigning } from './certificate-signing.js';
import { CertificateSubjectRestriction } from './certificate-subject-restriction.js';
import { ClusterTrustBundleAttest } from './cluster-trust-bundle-attest.js';

/** Allows exactly the "verb signers/name" strings given; records what was asked. */
function authorizer(allowed: string[], asked: string[] = []): () => Authorizer {
  const a: Authorizer = {
    name: 'test',
    authorize(attrs: AuthorizationAttributes) {
      const key = `${attrs.verb} ${attrs.apiGroup}/${attrs.resource}/${attrs.name}`;
      asked.push(key);
      return { decision: allowed.includes(key) ? 'Allow' : 'NoOpinion', reason: '' };
    },
  };
  return () => a;
}

function csr(signerName: string, status: Record<string, unknown> = {}, request = ''): KubeObject {
  return { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'c' }, spec: { signerName, request }, status };
}

const csrAttrs = { group: 'certificates.k8s.io', resource: 'certificatesigningrequests', kind: 'CertificateSigningRequest', namespace: '', name: 'c' } as const;

async function csrPem(subject: string): Promise<string> {
  const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const req = await Pkcs10CertificateRequestGenerator.create({ name: subject, keys, signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' } });
  return Buffer.from(req.toString('pem')).toString('base64');
}

describe('CertificateApproval', () => {
  it('needs approve on the stored signer, exactly or by its domain wildcard', async () => {
    const asked: string[] = [];
    const plugin = new CertificateApproval(authorizer(['approve certificates.k8s.io/signers/example.com/*'], asked));
    const attrs = testAttributes({ ...csrAttrs, operation: 'UPDATE', subresource: 'approval', object: csr('other.io/x'), oldObject: csr('example.com/a') });
    await plugin.validate(attrs);
    assert.deepEqual(asked, ['approve certificates.k8s.io/signers/example.com/a', 'approve certificates.k8s.io/signers/example.com/*']);
    const denied = new CertificateApproval(authorizer([]));
    await assert.rejects(denied.validate(attrs), (err: any) => {
      assert.equal(err.code, 403);
      assert.equal(err.message, 'certificatesigningrequests.certificates.k8s.io "c" is forbidden: user not permitted to approve requests with signerName "example.com/a"');
      return true;
    });
    await denied.validate({ ...attrs, subresource: 'status' });
  });
});

describe('CertificateSigning', () => {
  it('needs sign only when status.certificate changes', async () => {
    const plugin = new CertificateSigning(authorizer([]));
    const base = testAttributes({ ...csrAttrs, operation: 'UPDATE', subresource: 'status', oldObject: csr('example.com/a', { certificate: 'Zm9v' }) });
    await plugin.validate({ ...base, object: csr('example.com/a', { certificate: 'Zm9v', conditions: [] }) });
    await assert.rejects(plugin.validate({ ...base, object: csr('example.com/a', { certificate: 'YmFy' }) }), /user not permitted to sign requests with signerName "example.com\/a"/);
    await new CertificateSigning(authorizer(['sign certificates.k8s.io/signers/example.com/a'])).validate({ ...base, object: csr('example.com/a', { certificate: 'YmFy' }) });
  });
});

describe('CertificateSubjectRestriction', () => {
  it('refuses system:masters for the kube-apiserver-client signer only', async () => {
    const plugin = new CertificateSubjectRestriction();
    const masters = await csrPem('CN=admin, O=system:masters');
    const attrs = testAttributes({ ...csrAttrs, object: csr('kubernetes.io/kube-apiserver-client', {}, masters) });
    await assert.rejects(plugin.validate(attrs), /is forbidden: use of kubernetes.io\/kube-apiserver-client signer with system:masters group is not allowed/);
    await plugin.validate({ ...attrs, object: csr('example.com/a', {}, masters) });
    await plugin.validate({ ...attrs, object: csr('kubernetes.io/kube-apiserver-client', {}, await csrPem('CN=dev, O=devs')) });
    await assert.rejects(plugin.validate({ ...attrs, object: csr('kubernetes.io/kube-apiserver-client', {}, 'Zm9v') }), /failed to parse CSR: PEM block type must be CERTIFICATE REQUEST/);
  });
});

describe('ClusterTrustBundleAttest', () => {
  const bundle = (signerName: string, trustBundle = 'pem'): KubeObject => ({ apiVersion: 'certificates.k8s.io/v1beta1', kind: 'ClusterTrustBundle', metadata: { name: 'b' }, spec: { signerName, trustBundle } });
  const ctbAttrs = { group: 'certificates.k8s.io', resource: 'clustertrustbundles', kind: 'ClusterTrustBundle', namespace: '', name: 'b' } as const;

  it('needs attest for a signer, forbids changing it, passes unchanged specs and bundles without signer', async () => {
    const plugin = new ClusterTrustBundleAttest(authorizer([]), true);
    await assert.rejects(plugin.validate(testAttributes({ ...ctbAttrs, object: bundle('example.com/a') })), /user not permitted to attest for signerName "example.com\/a"/);
    await plugin.validate(testAttributes({ ...ctbAttrs, object: bundle('') }));
    await plugin.validate(testAttributes({ ...ctbAttrs, operation: 'UPDATE', object: bundle('example.com/a'), oldObject: bundle('example.com/a') }));
    await assert.rejects(plugin.validate(testAttributes({ ...ctbAttrs, operation: 'UPDATE', object: bundle('example.com/b'), oldObject: bundle('example.com/a') })), /changing signerName is forbidden/);
    await new ClusterTrustBundleAttest(authorizer(['attest certificates.k8s.io/signers/example.com/a']), true).validate(testAttributes({ ...ctbAttrs, object: bundle('example.com/a') }));
  });

  it('handles nothing when clustertrustbundles are not served', () => {
    assert.equal(new ClusterTrustBundleAttest(authorizer([]), false).handles('CREATE'), false);
  });
});
