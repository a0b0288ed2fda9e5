/**
 * ValidatingAdmissionPolicy through kubectl: a policy and binding applied from YAML deny a
 * Deployment with more than 5 replicas, and kubectl prints kube's text for it;
 * and an optional-syntax rule (a missing team label) denies too.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubectl, type KubectlResult } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

const fx = useServer();

const policy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: max-replicas
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments, deployments/scale]
  validations:
  - expression: "object.spec.replicas <= 5"
    message: replicas must be no greater than 5
  - expression: "object.?metadata.?labels.?team.hasValue()"
    message: a team label is expected
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: max-replicas-binding
spec:
  policyName: max-replicas
  validationActions: [Deny]
`;

async function until(run: () => Promise<KubectlResult>, done: (r: KubectlResult) => boolean): Promise<KubectlResult> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await run();
    if (done(r) || Date.now() > deadline) return r;
    await new Promise((res) => setTimeout(res, 200));
  }
}

describe('ValidatingAdmissionPolicy with kubectl', () => {
  it('denies with kube’s message as kubectl prints it', async () => {
    const applied = await kubectl(fx.kubeconfigPath, ['apply', '-f', '-'], { input: policy });
    assert.equal(applied.code, 0, applied.stderr);
    const denied = await until(
      () => kubectl(fx.kubeconfigPath, ['create', 'deployment', 'web', '--image=nginx', '--replicas=6', '--dry-run=server']),
      (r) => r.code !== 0,
    );
    assert.notEqual(denied.code, 0);
    assert.match(
      denied.stderr,
      /error: failed to create deployment: deployments\.apps "web" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: replicas must be no greater than 5/,
    );
    const created = await kubectl(fx.kubeconfigPath, ['create', 'deployment', 'web', '--image=nginx', '--replicas=2']);
    assert.notEqual(created.code, 0, 'no team label');
    assert.match(created.stderr, /denied request: a team label is expected/);
  });
});
