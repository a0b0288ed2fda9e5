import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { fieldErrorMessage } from '../../../validation/field-error.js';
import { validateDeployment } from './validation.js';

const deployment = (spec: Record<string, unknown>): KubeObject => ({
  metadata: { name: 'd' },
  spec: {
    selector: { matchLabels: { app: 'a' } },
    template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'a', image: 'x' }] } },
    ...spec,
  },
});
const errs = (spec: Record<string, unknown>): string[] => validateDeployment(deployment(spec)).map(fieldErrorMessage);

describe('deployment validation: strategy and template', () => {
  it('accepts the defaulted strategy', () => {
    assert.deepEqual(errs({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } } }), []);
  });

  it('checks rollingUpdate values', () => {
    assert.deepEqual(errs({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '0%' } } }), [
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
    ]);
    assert.deepEqual(errs({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%', maxSurge: -1 } } }), [
      'spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0',
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
    ]);
    assert.deepEqual(errs({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 'half', maxSurge: 1 } } }), [
      "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"half\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    ]);
  });

  it('refuses ephemeral containers and negative replicas', () => {
    const spec = deployment({ replicas: -1 }).spec as Record<string, unknown>;
    ((spec.template as Record<string, unknown>).spec as Record<string, unknown>).ephemeralContainers = [{ name: 'e', image: 'x' }];
    assert.deepEqual(validateDeployment({ metadata: { name: 'd' }, spec }).map(fieldErrorMessage), [
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template',
    ]);
  });
});
