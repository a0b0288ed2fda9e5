import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alwaysAllow } from '../../../authz/always.js';
import type { RuleAuthorizer } from '../../../authz/interface.js';
import { internalContext, type UserInfo } from '../../../request/context.js';
import { SelfSubjectRulesReviewStorage } from './store.js';

function storage(authorizer: RuleAuthorizer): SelfSubjectRulesReviewStorage {
  return new SelfSubjectRulesReviewStorage({ authorization: { authorizer, ready: Promise.resolve(), stop: () => undefined } });
}

const review = (spec: Record<string, unknown>) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', metadata: {}, spec });
const ctx = () => internalContext({ verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews' });

describe('SelfSubjectRulesReview storage', () => {
  it('lists the requester rules in spec.namespace as kube writes them', async () => {
    const asked: Array<[UserInfo, string]> = [];
    const authorizer: RuleAuthorizer = {
      name: 'fake',
      authorize: () => ({ decision: 'NoOpinion', reason: '' }),
      rulesFor: (user, ns) => {
        asked.push([user, ns]);
        return {
          resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }],
          nonResourceRules: [{ verbs: ['get'], nonResourceURLs: [] }],
          incomplete: true,
          evaluationError: 'webhook down',
        };
      },
    };
    const c = ctx();
    const out = await storage(authorizer).create(c, review({ namespace: 'ns1' }), { dryRun: false });
    assert.deepEqual(asked, [[c.user, 'ns1']]);
    assert.deepEqual(out, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: { creationTimestamp: null },
      spec: {},
      status: { resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], nonResourceRules: [{ verbs: ['get'] }], incomplete: true, evaluationError: 'webhook down' },
    });
  });

  it('needs a namespace (400, kube message)', async () => {
    await assert.rejects(storage(alwaysAllow).create(ctx(), review({}), { dryRun: false }), { message: 'no namespace on request' });
  });
});
