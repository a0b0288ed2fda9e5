import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { newConflict, optimisticLockErrorMsg } from '../../../apierrors/factories.js';
import type { QuotaObject } from '../../../quota/interface.js';
import { EvaluatorRegistry } from '../../../quota/registry.js';
import { testAttributes } from '../test-attributes.js';
import type { QuotaAccessor } from './quota-accessor.js';
import { QuotaAdmissionEvaluator } from './quota-evaluator.js';

/** An in-memory quota store with compare-and-swap, optionally losing the first writes. */
class FakeAccessor {
  quota: QuotaObject = { metadata: { name: 'q', namespace: 'ns', resourceVersion: '1' }, spec: { hard: { pods: '3' } }, status: { hard: { pods: '3' }, used: { pods: '0' } } };
  writes = 0;
  reads = 0;
  loseNext = 0;
  knownEmpty = () => false;
  async getQuotas(): Promise<QuotaObject[]> {
    this.reads++;
    await new Promise((r) => setTimeout(r, 5));
    return [structuredClone(this.quota)];
  }
  getQuotasLive = this.getQuotas;
  async updateQuotaStatus(q: QuotaObject): Promise<void> {
    await new Promise((r) => setTimeout(r, 5));
    if (this.loseNext > 0) {
      this.loseNext--;
      // someone else's write moves the version on
      this.quota = { ...this.quota, metadata: { ...this.quota.metadata, resourceVersion: String(Number(this.quota.metadata.resourceVersion) + 1) } };
      throw newConflict({ group: '', resource: 'resourcequotas' }, 'q', optimisticLockErrorMsg);
    }
    if (q.metadata.resourceVersion !== this.quota.metadata.resourceVersion) throw newConflict({ group: '', resource: 'resourcequotas' }, 'q', optimisticLockErrorMsg);
    this.writes++;
    this.quota = { ...q, metadata: { ...q.metadata, resourceVersion: String(Number(q.metadata.resourceVersion) + 1) } };
  }
}

const pod = (name: string): KubeObject => ({ metadata: { name }, spec: { containers: [] } }) as KubeObject;

function evaluator(fake: FakeAccessor) {
  return new QuotaAdmissionEvaluator(fake as unknown as QuotaAccessor, new EvaluatorRegistry(), { limitedResources: [] });
}

describe('QuotaAdmissionEvaluator', () => {
  it('batches concurrent requests of a namespace: exactly the quota is admitted, with few writes', async () => {
    const fake = new FakeAccessor();
    const e = evaluator(fake);
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => e.evaluate(testAttributes({ resource: 'pods', object: pod(`p${i}`) }))));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 3);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    assert.match((refused.reason as Error).message, /exceeded quota: q, requested: pods=1, used: pods=3, limited: pods=3$/);
    assert.deepEqual(fake.quota.status?.used, { pods: '3' });
    assert.ok(fake.writes <= 2, `writes ${fake.writes}`);
  });

  it('retries a lost compare-and-swap from a fresh read, and gives up with the Conflict after three retries', async () => {
    const fake = new FakeAccessor();
    fake.loseNext = 2;
    await evaluator(fake).evaluate(testAttributes({ resource: 'pods', object: pod('a') }));
    assert.deepEqual(fake.quota.status?.used, { pods: '1' });

    const always = new FakeAccessor();
    always.loseNext = 100;
    await assert.rejects(evaluator(always).evaluate(testAttributes({ resource: 'pods', object: pod('b') })), /Operation cannot be fulfilled on resourcequotas "q"/);
  });

  it('does not charge dry runs, and skips namespaces known to have no quota and ignored resources', async () => {
    const fake = new FakeAccessor();
    const e = evaluator(fake);
    await e.evaluate(testAttributes({ resource: 'pods', object: pod('a'), dryRun: true }));
    assert.equal(fake.writes, 0);
    fake.knownEmpty = () => true;
    const reads = fake.reads;
    await e.evaluate(testAttributes({ resource: 'pods', object: pod('b') }));
    fake.knownEmpty = () => false;
    await e.evaluate(testAttributes({ resource: 'events', object: pod('c') }));
    assert.equal(fake.reads, reads);
  });
});
