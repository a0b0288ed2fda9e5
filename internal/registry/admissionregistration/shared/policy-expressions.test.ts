import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { fieldErrorMessage } from '../../../validation/field-error.js';
import { validatePolicyExpressions } from './policy-expressions.js';

const policy = (spec: Record<string, unknown>) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'p' }, spec }) as KubeObject;

describe('ValidatingAdmissionPolicy expressions at create', () => {
  it('accepts expressions over the declared variables and libraries', () => {
    const errs = validatePolicyExpressions(
      policy({
        validations: [{ expression: "object.spec.replicas <= int(params.data.max) && authorizer.group('apps').resource('deployments').check('create').allowed()", messageExpression: "'too many: ' + string(variables.n)", reason: 'Forbidden' }],
        variables: [{ name: 'n', expression: 'object.?spec.?replicas.orValue(0)' }],
        matchConditions: [{ name: 'c', expression: "request.operation == 'CREATE'" }],
        auditAnnotations: [{ key: 'k', valueExpression: "namespaceObject.metadata.name + '/' + oldObject.metadata.name" }],
      }),
    );
    assert.deepEqual(errs, []);
  });

  it('reports each expression that does not compile, and unsupported reasons, at kube’s paths', () => {
    const errs = validatePolicyExpressions(
      policy({
        validations: [{ expression: 'object.spec.replicas <', reason: 'Teapot' }, { expression: 'true', messageExpression: "authorizer.path('/').check('get').reason()" }],
        variables: [{ name: 'n', expression: 'self.x' }],
        auditAnnotations: [{ key: 'k' }],
      }),
    );
    const messages = errs.map(fieldErrorMessage);
    assert.match(messages[0]!, /^spec\.validations\[0\]\.expression: Invalid value: "object\.spec\.replicas <": compilation failed: ERROR: <input>:1:\d+: /);
    assert.equal(messages[1], 'spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Unauthorized", "Forbidden", "Invalid", "RequestEntityTooLarge"');
    assert.match(messages[2]!, /^spec\.validations\[1\]\.messageExpression: Invalid value: .*undeclared reference to 'authorizer'/s);
    assert.equal(messages[3], 'spec.auditAnnotations[0].valueExpression: Required value');
    assert.match(messages[4]!, /^spec\.variables\[0\]\.expression: Invalid value: "self\.x": compilation failed: ERROR: <input>:1:1: undeclared reference to 'self'/);
    assert.equal(errs.length, 5);
  });
});
