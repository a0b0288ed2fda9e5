import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { typeCheckPolicy } from './controller.js';

function policy(spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'p', generation: 1 },
    spec: { matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] }, ...spec },
  };
}

describe('ValidatingAdmissionPolicy type checking', () => {
  it('reports undefined fields and mismatched literals against the Deployment schema', () => {
    const warnings = typeCheckPolicy(
      policy({
        validations: [
          { expression: 'object.spec.replicas <= 5 && object.spec.template.spec.containers.all(c, c.image != "")' },
          { expression: 'object.spec.replica > 1' },
          { expression: "object.spec.replicas == 'three'", messageExpression: "'bad: ' + object.metadata.nam" },
        ],
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        variables: [{ name: 'limit', expression: 'params.data.max' }, { name: 'wrong', expression: 'params.spec' }],
      }),
    );
    assert.deepEqual(
      warnings.map((w) => w.fieldRef),
      ['spec.validations[1].expression', 'spec.validations[2].expression', 'spec.validations[2].messageExpression', 'spec.variables[1].expression'],
    );
    assert.match(warnings[0]!.warning, /^apps\/v1, Kind=Deployment: ERROR: <input>:1:\d+: undefined field 'replica'\n \| object.spec.replica > 1\n \| \.*\^$/);
    assert.match(warnings[1]!.warning, /found no matching overload for '_==_' applied to '\(int, string\)'/);
    assert.match(warnings[3]!.warning, /undefined field 'spec'/);
  });

  it('does not check rules with wildcards', () => {
    const p = policy({ validations: [{ expression: 'object.nope' }] });
    (p.spec as { matchConstraints: { resourceRules: { resources: string[] }[] } }).matchConstraints.resourceRules[0]!.resources = ['*'];
    assert.deepEqual(typeCheckPolicy(p), []);
  });
});
