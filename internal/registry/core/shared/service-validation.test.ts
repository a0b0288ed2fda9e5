import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { fieldErrorMessage } from '../../../validation/field-error.js';
import { validateService } from './service-validation.js';

const errs = (spec: Record<string, unknown>): string[] =>
  validateService({ metadata: { name: 's' }, spec: { ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], ...spec } } as KubeObject).map(fieldErrorMessage);

describe('service validation: session affinity', () => {
  it('accepts the defaulted forms', () => {
    assert.deepEqual(errs({ sessionAffinity: 'None' }), []);
    assert.deepEqual(errs({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } } }), []);
  });

  it('checks the value and the ClientIP config', () => {
    assert.deepEqual(errs({ sessionAffinity: 'Sticky' }), ['spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"']);
    assert.deepEqual(errs({ sessionAffinity: 'ClientIP' }), ['spec.sessionAffinityConfig: Required value: when session affinity type is ClientIP']);
    assert.deepEqual(errs({ sessionAffinity: 'ClientIP', sessionAffinityConfig: {} }), [
      'spec.sessionAffinityConfig.clientIP: Required value: when session affinity type is ClientIP',
    ]);
    assert.deepEqual(errs({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } } }), [
      'spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400',
    ]);
    assert.deepEqual(errs({ sessionAffinity: 'None', sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } }), [
      'spec.sessionAffinityConfig: Forbidden: must not be set when session affinity is None',
    ]);
  });
});

describe('service validation: traffic policies', () => {
  it('allows externalTrafficPolicy only on externally accessible services', () => {
    assert.deepEqual(errs({ type: 'ClusterIP', externalTrafficPolicy: 'Cluster' }), [
      'spec.externalTrafficPolicy: Invalid value: "Cluster": may only be set for externally-accessible services',
    ]);
    assert.deepEqual(errs({ type: 'ClusterIP', externalIPs: ['192.0.2.1'], externalTrafficPolicy: 'Local' }), []);
    assert.deepEqual(errs({ type: 'NodePort', externalTrafficPolicy: 'Global' }), [
      'spec.externalTrafficPolicy: Unsupported value: "Global": supported values: "Cluster", "Local"',
    ]);
  });

  it('checks internalTrafficPolicy values and where healthCheckNodePort may be set', () => {
    assert.deepEqual(errs({ internalTrafficPolicy: 'Node' }), ['spec.internalTrafficPolicy: Unsupported value: "Node": supported values: "Cluster", "Local"']);
    assert.deepEqual(errs({ type: 'NodePort', externalTrafficPolicy: 'Local', healthCheckNodePort: 30000 }), [
      "spec.healthCheckNodePort: Invalid value: 30000: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
    ]);
    assert.deepEqual(errs({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 30000 }), []);
  });
});
