import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rejectionStatus } from './errors.js';
import { createAdmissionReview, verifyAdmissionResponse, type ReviewInput } from './review.js';

const input: ReviewInput = {
  kind: { group: '', version: 'v1', kind: 'ConfigMap' },
  resource: { group: '', version: 'v1', resource: 'configmaps' },
  subResource: '',
  requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
  requestResource: { group: '', version: 'v1', resource: 'configmaps' },
  requestSubResource: '',
  name: 'cm',
  namespace: 'default',
  operation: 'CREATE',
  userInfo: { name: 'alice', groups: ['system:authenticated'], extra: {} },
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } },
  oldObject: undefined,
  dryRun: false,
  options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
};

describe('AdmissionReview', () => {
  it('builds the v1 request kube sends', () => {
    const { uid, review } = createAdmissionReview(input, 'v1');
    assert.match(uid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(review, {
      kind: 'AdmissionReview',
      apiVersion: 'admission.k8s.io/v1',
      request: {
        uid,
        kind: input.kind,
        resource: input.resource,
        requestKind: input.requestKind,
        requestResource: input.requestResource,
        name: 'cm',
        namespace: 'default',
        operation: 'CREATE',
        userInfo: { username: 'alice', groups: ['system:authenticated'] },
        object: input.object,
        oldObject: null,
        dryRun: false,
        options: input.options,
      },
    });
    assert.equal(createAdmissionReview(input, 'v1beta1').review.apiVersion, 'admission.k8s.io/v1beta1');
  });

  it('checks answers with kube\'s messages', () => {
    const ok = (response: unknown) => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response });
    assert.throws(() => verifyAdmissionResponse('u', 'v1', false, {}), /^Error: webhook response was absent$/);
    assert.throws(() => verifyAdmissionResponse('u', 'v1', false, ok({ uid: 'x', allowed: true })), { message: 'expected response.uid="u", got "x"' });
    assert.throws(() => verifyAdmissionResponse('u', 'v1', false, { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid: 'u' } }), {
      message: 'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview',
    });
    const patch = Buffer.from('[{"op":"add","path":"/x","value":1}]').toString('base64');
    assert.throws(() => verifyAdmissionResponse('u', 'v1', true, ok({ uid: 'u', allowed: true, patch })), { message: 'webhook returned response.patch but not response.patchType' });
    assert.throws(() => verifyAdmissionResponse('u', 'v1', true, ok({ uid: 'u', allowed: true, patchType: 'JSONPatch' })), { message: 'webhook returned response.patchType but not response.patch' });
    assert.throws(() => verifyAdmissionResponse('u', 'v1', false, ok({ uid: 'u', allowed: true, patch })), { message: 'validating webhook may not return response.patch' });
    const r = verifyAdmissionResponse('u', 'v1', true, ok({ uid: 'u', allowed: true, patch, patchType: 'JSONPatch', warnings: ['w'], auditAnnotations: { a: 'b' } }));
    assert.deepEqual(r.patch, [{ op: 'add', path: '/x', value: 1 }]);
    assert.deepEqual(r.warnings, ['w']);
    assert.deepEqual(r.auditAnnotations, { a: 'b' });
    // v1beta1 answers are not checked for uid or kind.
    assert.equal(verifyAdmissionResponse('u', 'v1beta1', false, { response: { allowed: true } }).allowed, true);
  });

  it('turns a refusal into kube\'s Status', () => {
    const s = rejectionStatus('deny.example.com', { code: 403, message: 'no way', reason: 'Forbidden' });
    assert.equal(s.code, 403);
    assert.equal(s.message, 'admission webhook "deny.example.com" denied the request: no way');
    assert.equal(s.reason, 'Forbidden');
    assert.equal(rejectionStatus('w', { code: 200 }).code, 400);
    assert.equal(rejectionStatus('w', undefined).message, 'admission webhook "w" denied the request without explanation');
    assert.equal(rejectionStatus('w', { reason: 'Because' }).message, 'admission webhook "w" denied the request: Because');
  });
});

describe('AdmissionReview version', () => {
  it('is the first of admissionReviewVersions the server speaks', async () => {
    const { compileWebhook } = await import('./accessor.js');
    const version = (admissionReviewVersions: string[]) => compileWebhook('c', { name: 'w', clientConfig: {}, admissionReviewVersions }, 0).reviewVersion;
    assert.equal(version(['v1']), 'v1');
    assert.equal(version(['v1beta1']), 'v1beta1');
    assert.equal(version(['v1beta1', 'v1']), 'v1beta1');
    assert.equal(version(['v2', 'v1', 'v1beta1']), 'v1');
  });
});
