import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import type { Informer, InformerHandlers } from '../../controllers/informer.js';
import { parseRequestInfo } from '../../request/request-info.js';
import type { FlowDispatcher, PriorityLevelSpec } from '../interface.js';
import { ConfigController } from './config-controller.js';
import type { DanglingStatusWriter } from './dangling-status.js';

/** An informer over a map the test edits, telling its handlers. */
function fakeInformer() {
  const items = new Map<string, KubeObject>();
  const handlers: InformerHandlers[] = [];
  const informer = {
    synced: Promise.resolve(),
    list: () => items.values(),
    addHandlers: (h: InformerHandlers) => handlers.push(h),
  } as unknown as Informer;
  const put = (obj: KubeObject) => {
    items.set(obj.metadata.name ?? '', obj);
    for (const h of handlers) h.added?.(obj);
  };
  return { informer, put };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('APF configuration controller', () => {
  it('installs the mandatory levels at once, then follows the objects and asks for Dangling conditions', async () => {
    const installed: (readonly PriorityLevelSpec[])[] = [];
    const dispatcher = { setPriorityLevels: (l: readonly PriorityLevelSpec[]) => installed.push(l) } as unknown as FlowDispatcher;
    const writes: Array<[string, string, boolean]> = [];
    const status = { enqueue: (n: string, l: string, d: boolean) => writes.push([n, l, d]) } as unknown as DanglingStatusWriter;
    const c = new ConfigController(dispatcher);
    assert.deepEqual(installed[0]?.map((l) => l.name).sort(), ['catch-all', 'exempt']);
    const u = { name: 'bob', groups: ['system:authenticated'] };
    const ri = parseRequestInfo('GET', '/api/v1/pods', new URLSearchParams());
    assert.equal(c.classify(u, ri).flowSchemaName, 'catch-all');

    const fs = fakeInformer();
    const pl = fakeInformer();
    fs.put({ metadata: { name: 'bobs', uid: 'u1' }, spec: { priorityLevelConfiguration: { name: 'bob-level' }, matchingPrecedence: 10, rules: [{ subjects: [{ kind: 'User', user: { name: 'bob' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }] }] } });
    await c.follow({ flowSchemas: fs.informer, priorityLevels: pl.informer, status });
    assert.equal(c.hasSynced(), true);
    assert.deepEqual(writes, [['bobs', 'bob-level', true]]);
    assert.equal(c.classify(u, ri).flowSchemaName, 'catch-all', 'dangling: left out');

    pl.put({ metadata: { name: 'bob-level', uid: 'u2' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 3, limitResponse: { type: 'Reject' } } } });
    await tick();
    const c2 = c.classify(u, ri);
    assert.equal(c2.flowSchemaName, 'bobs');
    assert.equal(c2.priorityLevelUID, 'u2');
    assert.ok(installed.at(-1)?.some((l) => l.name === 'bob-level' && l.nominalConcurrencyShares === 3 && l.queuing === undefined));
    assert.deepEqual(writes.at(-1), ['bobs', 'bob-level', false]);
    c.stop();
  });
});
