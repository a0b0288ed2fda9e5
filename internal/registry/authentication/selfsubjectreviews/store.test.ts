import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { internalContext } from '../../../request/context.js';
import { SelfSubjectReviewStorage } from './store.js';

describe('SelfSubjectReview storage', () => {
  it('answers with the requester, stamped with the time, and nothing of the review sent', async () => {
    const ctx = internalContext({ verb: 'create', group: 'authentication.k8s.io', resource: 'selfsubjectreviews' });
    ctx.user = { name: 'bob', uid: 'b-1', groups: ['g', 'system:authenticated'], extra: { team: ['blue'] } };
    const before = Date.now() - 1000;
    const out = await new SelfSubjectReviewStorage().create(ctx, { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: { name: 'x' } }, { dryRun: false });
    assert.deepEqual(out.status, { userInfo: { username: 'bob', uid: 'b-1', groups: ['g', 'system:authenticated'], extra: { team: ['blue'] } } });
    assert.deepEqual(Object.keys(out.metadata), ['creationTimestamp']);
    assert.ok(Date.parse(out.metadata.creationTimestamp as string) >= Math.floor(before / 1000) * 1000);
  });
});
