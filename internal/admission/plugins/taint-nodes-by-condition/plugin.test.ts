import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { attrsFor, testContext } from '../pod-shared/fakes.js';
import { TaintNodesByCondition } from './plugin.js';

const node = (spec: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, spec });
const nodeAttrs = (obj: KubeObject) => attrsFor('CREATE', obj, { resource: 'nodes', kind: 'Node', namespace: '' });

describe('TaintNodesByCondition', () => {
  it('taints a new node not-ready:NoSchedule once', async () => {
    const p = new TaintNodesByCondition();
    const n = node({ taints: [{ key: 'a', effect: 'NoExecute' }] });
    await p.admit(nodeAttrs(n), testContext);
    assert.deepEqual((n.spec as { taints: unknown[] }).taints, [{ key: 'a', effect: 'NoExecute' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
    const tainted = node({ taints: [{ key: 'node.kubernetes.io/not-ready', value: 'x', effect: 'NoSchedule' }] });
    await p.admit(nodeAttrs(tainted), testContext);
    assert.equal((tainted.spec as { taints: unknown[] }).taints.length, 1);
    assert.equal(p.handles('UPDATE'), false);
  });
});
