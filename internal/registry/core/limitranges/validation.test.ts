import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { messages } from '../../shared/testing-messages.js';
import { defaultLimitRange } from './strategy.js';
import { validateLimitRange } from './validation.js';

function lr(limits: unknown[]): KubeObject {
  return { metadata: { name: 'l' }, spec: { limits } };
}

describe('LimitRange validation and defaults', () => {
  it('orders min, default request, default and max', () => {
    assert.deepEqual(messages(validateLimitRange(lr([{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }]))), [
      'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
    ]);
    assert.deepEqual(messages(validateLimitRange(lr([{ type: 'Container', default: { memory: '1Gi' }, defaultRequest: { memory: '2Gi' } }]))), [
      'spec.limits[0].defaultRequest[memory]: Invalid value: "2Gi": default request value 2Gi is greater than default limit value 1Gi',
    ]);
    assert.deepEqual(messages(validateLimitRange(lr([{ type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }]))), [
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1',
    ]);
  });

  it('forbids defaults on Pod limits and requires a storage bound on claim limits', () => {
    assert.deepEqual(messages(validateLimitRange(lr([{ type: 'Pod', default: { cpu: '1' } }, { type: 'PersistentVolumeClaim' }, { type: 'Pod' }]))), [
      "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
      'spec.limits[1].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
      'spec.limits[2].type: Duplicate value: "Pod"',
    ]);
  });

  it('defaults container limits from max and requests from defaults and min', () => {
    const obj = lr([{ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' } }]);
    defaultLimitRange(obj);
    assert.deepEqual((obj.spec as Record<string, any>).limits[0], {
      type: 'Container',
      max: { cpu: '2' },
      min: { memory: '64Mi' },
      default: { cpu: '2' },
      defaultRequest: { cpu: '2', memory: '64Mi' },
    });
  });
});
