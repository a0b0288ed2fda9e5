import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorMessage } from '../../../validation/field-error.js';
import { validateNode } from './strategy.js';

describe('node validation: resources', () => {
  it('checks capacity and allocatable quantities at kube’s dotted paths', () => {
    const errs = validateNode({
      metadata: { name: 'n' },
      status: { capacity: { cpu: '4', memory: 'lots', pods: '110' }, allocatable: { cpu: '-1', pods: '1.5' } },
    }).map(fieldErrorMessage);
    assert.deepEqual(errs, [
      "status.capacity.memory: Invalid value: \"lots\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      'status.allocatable.cpu: Invalid value: "-1": must be greater than or equal to 0',
      'status.allocatable.pods: Invalid value: "1500m": must be an integer',
    ]);
  });
});
