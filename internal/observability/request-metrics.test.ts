import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KubeRegistry } from './kube-registry.js';
import { createRequestMetrics, mutatingKind, readOnlyKind } from './request-metrics.js';

describe('apiserver_current_inflight_requests', () => {
  it('reports the most requests executing at once in the last second, per kind', async () => {
    const registry = new KubeRegistry();
    const m = createRequestMetrics(registry);
    const value = async (kind: string): Promise<string | undefined> => new RegExp(`^apiserver_current_inflight_requests\\{request_kind="${kind}"\\} (\\S+)$`, 'm').exec(await registry.metrics())?.[1];
    assert.equal(await value('readOnly'), '0', 'both kinds are reported from the start');
    m.inflight.begin(readOnlyKind);
    m.inflight.begin(readOnlyKind);
    m.inflight.begin(mutatingKind);
    m.inflight.end(readOnlyKind);
    m.inflight.publish();
    assert.equal(await value('readOnly'), '2', 'the peak of the second, not the count now');
    assert.equal(await value('mutating'), '1');
    m.inflight.end(readOnlyKind);
    m.inflight.end(mutatingKind);
    m.inflight.publish();
    assert.equal(await value('readOnly'), '1', 'a new second starts from the count at its start');
    m.inflight.publish();
    assert.equal(await value('readOnly'), '0');
    m.inflight.stop();
  });
});
