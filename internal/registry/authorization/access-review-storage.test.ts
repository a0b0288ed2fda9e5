import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { alwaysDeny } from '../../authz/always.js';
import type { AuthorizationAttributes, AuthorizationDecision, RuleAuthorizer } from '../../authz/interface.js';
import type { BuiltAuthorization } from '../../authz/build.js';
import { internalContext } from '../../request/context.js';
import { AccessReviewStorage } from './access-review-storage.js';

/** An authorizer that records what it is asked and answers decision. */
function recording(decision: AuthorizationDecision): RuleAuthorizer & { asked: AuthorizationAttributes[] } {
  const asked: AuthorizationAttributes[] = [];
  return { name: 'recording', asked, authorize: (a) => (asked.push(a), decision), rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true }) };
}

function security(authorizer: RuleAuthorizer): { authorization: BuiltAuthorization } {
  return { authorization: { authorizer, ready: Promise.resolve(), stop: () => undefined } };
}

const sar = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata, spec });

function ctxIn(namespace = '') {
  const ctx = internalContext({ verb: 'create', group: 'authorization.k8s.io', resource: 'subjectaccessreviews', namespace });
  ctx.user = { name: 'me', groups: ['mine'] };
  return ctx;
}

async function invalidMessage(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    assert.equal((err as { status?: { code?: number } }).status?.code, 422);
    return (err as Error).message;
  }
  assert.fail('expected 422');
}

describe('SubjectAccessReview storage', () => {
  it('asks about the subject of the spec, every version when none is given, and maps the decision', async () => {
    const authz = recording({ decision: 'Allow', reason: 'because' });
    const out = await new AccessReviewStorage('subject', security(authz)).create(
      ctxIn(),
      sar({ user: 'bob', uid: 'b', groups: ['g'], extra: { team: ['blue'] }, resourceAttributes: { verb: 'get', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'ns', name: 'web' } }),
      { dryRun: false },
    );
    assert.deepEqual(authz.asked[0], {
      user: { name: 'bob', uid: 'b', groups: ['g'], extra: { team: ['blue'] } },
      verb: 'get',
      isResourceRequest: true,
      path: '',
      namespace: 'ns',
      apiGroup: 'apps',
      apiVersion: '*',
      resource: 'deployments',
      subresource: 'scale',
      name: 'web',
    });
    assert.deepEqual(out.status, { allowed: true, reason: 'because' });
    assert.deepEqual(out.metadata, { creationTimestamp: null });
  });

  it('answers NoOpinion as neither allowed nor denied, Deny as denied, with evaluation errors', async () => {
    const deny = await new AccessReviewStorage('subject', security(alwaysDeny)).create(ctxIn(), sar({ groups: ['g'], nonResourceAttributes: { path: '/x', verb: 'get' } }), { dryRun: false });
    assert.deepEqual(deny.status, { allowed: false, reason: 'Everything is forbidden.' });
    const denied = await new AccessReviewStorage('subject', security(recording({ decision: 'Deny', reason: 'no', error: 'webhook down' }))).create(
      ctxIn(),
      sar({ user: 'u', nonResourceAttributes: { path: '/x', verb: 'get' } }),
      { dryRun: false },
    );
    assert.deepEqual(denied.status, { allowed: false, denied: true, reason: 'no', evaluationError: 'webhook down' });
  });

  it('hands the authorizer the selectors it could parse and reports the rest', async () => {
    const authz = recording({ decision: 'NoOpinion', reason: '' });
    const out = await new AccessReviewStorage('subject', security(authz)).create(
      ctxIn(),
      sar({
        user: 'u',
        resourceAttributes: {
          verb: 'list',
          resource: 'pods',
          fieldSelector: { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }, { key: 'a', operator: 'Exists' }] },
          labelSelector: { rawSelector: 'app=web,tier in (db)' },
        },
      }),
      { dryRun: false },
    );
    assert.deepEqual(authz.asked[0]?.fieldSelector, { requirements: [{ field: 'spec.nodeName', operator: '=', value: 'n1' }], parseError: 'fieldSelectors do not yet support Exists' });
    assert.deepEqual(authz.asked[0]?.labelSelector?.requirements.map((r) => [r.key, r.operator, r.values]), [
      ['app', '=', ['web']],
      ['tier', 'in', ['db']],
    ]);
    assert.deepEqual(out.status, { allowed: false, evaluationError: 'spec.resourceAttributes.fieldSelector partially ignored due to parse error' });
  });

  it('validates as kube does, errors in kube order', async () => {
    const store = new AccessReviewStorage('subject', security(recording({ decision: 'Allow', reason: '' })));
    assert.equal(
      await invalidMessage(store.create(ctxIn(), sar({ resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/x', verb: 'get' } }), { dryRun: false })),
      '.authorization.k8s.io "" is invalid: [spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes, spec.user: Invalid value: "": at least one of user or group must be specified]',
    );
    assert.equal(
      await invalidMessage(
        store.create(ctxIn(), sar({ user: 'u', resourceAttributes: { fieldSelector: {}, labelSelector: { rawSelector: 'a', requirements: [{ key: 'a', operator: 'Unknown' }] } } }), { dryRun: false }),
      ),
      '.authorization.k8s.io "" is invalid: [spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required, spec.resourceAttributes.labelSelector.rawSelector: Invalid value: "a": may not specified at the same time as requirements]',
    );
    const meta = await invalidMessage(store.create(ctxIn(), sar({ user: 'u', nonResourceAttributes: { path: '/', verb: 'get' } }, { name: 'named' }), { dryRun: false }));
    assert.match(meta, /^\.authorization\.k8s\.io "" is invalid: metadata: Invalid value: &ObjectMeta\{Name:named,.*\}: must be empty$/);
    // managedFields and the system fields the handler wipes are no reason to refuse.
    await store.create(ctxIn(), sar({ user: 'u', nonResourceAttributes: { path: '/', verb: 'get' } }, { uid: 'x', managedFields: [{ manager: 'm' }] }), { dryRun: false });
  });
});

describe('LocalSubjectAccessReview storage', () => {
  const store = new AccessReviewStorage('local', security(recording({ decision: 'Allow', reason: '' })));
  const lsar = (ns: string, metadata: Record<string, unknown> = {}) => ({ ...sar({ user: 'u', resourceAttributes: { verb: 'get', resource: 'pods', namespace: ns } }, metadata), kind: 'LocalSubjectAccessReview' });

  it('takes its namespace from the URL, which resourceAttributes must repeat', async () => {
    const out = await store.create(ctxIn('ns1'), lsar('ns1'), { dryRun: false });
    assert.deepEqual(out.metadata, { namespace: 'ns1', creationTimestamp: null });
    assert.equal(await invalidMessage(store.create(ctxIn('ns1'), lsar(''), { dryRun: false })), '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "": must match metadata.namespace');
    await assert.rejects(store.create(ctxIn('ns1'), lsar('ns1', { namespace: 'ns2' }), { dryRun: false }), {
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
  });

  it('refuses non-resource attributes', async () => {
    const msg = await invalidMessage(store.create(ctxIn('ns1'), { ...sar({ groups: ['g'], nonResourceAttributes: { path: '/x', verb: 'get' } }), kind: 'LocalSubjectAccessReview' }, { dryRun: false }));
    assert.equal(msg, '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: disallowed on this kind of request');
  });
});

describe('SelfSubjectAccessReview storage', () => {
  it('asks about the requester and needs no subject', async () => {
    const authz = recording({ decision: 'Allow', reason: '' });
    const out = await new AccessReviewStorage('self', security(authz)).create(ctxIn(), { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: {}, spec: { nonResourceAttributes: { path: '/logs', verb: 'get' } } }, { dryRun: false });
    assert.deepEqual(authz.asked[0]?.user, { name: 'me', groups: ['mine'] });
    assert.deepEqual([authz.asked[0]?.isResourceRequest, authz.asked[0]?.path, authz.asked[0]?.verb], [false, '/logs', 'get']);
    assert.deepEqual(out.status, { allowed: true });
  });
});
