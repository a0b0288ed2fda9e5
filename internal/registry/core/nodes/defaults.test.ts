import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { defaultNode } from './defaults.js';

describe('defaultNode (SetObjectDefaults_Node)', () => {
  it('copies capacity into a missing allocatable and canonicalises both', () => {
    const obj: KubeObject = { metadata: { name: 'n' }, status: { capacity: { cpu: '4000m', memory: '8192Mi', pods: 110 } } };
    defaultNode(obj);
    assert.deepEqual(obj.status, { capacity: { cpu: '4', memory: '8Gi', pods: '110' }, allocatable: { cpu: '4', memory: '8Gi', pods: '110' } });
  });

  it('keeps a reported allocatable and leaves a node without status alone', () => {
    const obj: KubeObject = { metadata: { name: 'n' }, status: { capacity: { cpu: '4' }, allocatable: { cpu: '3900m' } } };
    defaultNode(obj);
    assert.deepEqual(obj.status, { capacity: { cpu: '4' }, allocatable: { cpu: '3900m' } });
    const bare: KubeObject = { metadata: { name: 'b' }, spec: {} };
    defaultNode(bare);
    assert.deepEqual(bare, { metadata: { name: 'b' }, spec: {} });
  });
});
