import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuthorizationAttributes, AuthorizationDecision } from '../../authz/interface.js';
import { compileExpression, type AuthzBinding } from '../expression.js';
import { authorizerValue } from './authz.js';

function binding(decide: (a: AuthorizationAttributes) => AuthorizationDecision | Promise<AuthorizationDecision>, asked: AuthorizationAttributes[] = []): AuthzBinding {
  return {
    user: { name: 'alice', groups: ['dev'] },
    authorize: (a) => {
      asked.push(a);
      return decide(a);
    },
    decisions: new Map(),
    pending: new Map(),
  };
}

const rbacLike = (a: AuthorizationAttributes): AuthorizationDecision =>
  a.user.name === 'alice' && a.apiGroup === 'apps' && a.resource === 'deployments' && a.verb === 'create'
    ? { decision: 'Allow', reason: 'bound by rolebinding dev' }
    : a.user.name === 'system:serviceaccount:ns:sa' && !a.isResourceRequest && a.path === '/healthz'
      ? { decision: 'Allow', reason: '' }
      : { decision: 'NoOpinion', reason: 'no rule' };

const vars = ['authorizer'];

describe('authz library', () => {
  it('checks resources and paths with the request user or a service account', () => {
    const asked: AuthorizationAttributes[] = [];
    const authz = binding(rbacLike, asked);
    const authorizer = authorizerValue({ group: 'apps', resource: 'deployments', subresource: '', namespace: 'default', name: 'web' });
    const run = (e: string) => compileExpression(e, { variables: vars }).evaluate({ authorizer }, { authz });
    assert.equal(run("authorizer.group('apps').resource('deployments').namespace('default').name('web').check('create').allowed()"), true);
    assert.equal(asked[0]?.namespace, 'default');
    assert.equal(asked[0]?.name, 'web');
    assert.equal(run("authorizer.group('apps').resource('deployments').check('create').reason()"), 'bound by rolebinding dev');
    assert.equal(run("authorizer.group('').resource('secrets').check('get').allowed()"), false);
    assert.equal(run("authorizer.group('').resource('secrets').check('get').errored()"), false);
    assert.equal(run("authorizer.requestResource.check('create').allowed()"), true);
    run("authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n1').labelSelector('app in (web)').check('list').allowed()");
    assert.deepEqual(asked.at(-1)?.fieldSelector, { requirements: [{ field: 'spec.nodeName', operator: '=', value: 'n1' }] });
    assert.equal(asked.at(-1)?.labelSelector?.requirements[0]?.key, 'app');
    assert.equal(run("authorizer.serviceAccount('ns', 'sa').path('/healthz').check('GET').allowed()"), true);
    assert.equal(asked.at(-1)?.verb, 'get');
    assert.deepEqual(asked.at(-1)?.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated']);
  });

  it('awaits an authorizer that answers asynchronously, asking once per check', async () => {
    const asked: AuthorizationAttributes[] = [];
    const authz = binding(async (a) => rbacLike(a), asked);
    const e = compileExpression("authorizer.group('apps').resource('deployments').check('create').allowed() && !authorizer.path('/x').check('get').allowed()", { variables: vars });
    const r = await e.evaluateAsync({ authorizer: authorizerValue() }, { authz });
    assert.equal(r.value, true);
    assert.equal(asked.length, 2);
    assert.throws(() => e.evaluate({ authorizer: authorizerValue() }, { authz: binding(async (a) => rbacLike(a)) }), /asynchronous authorizer/);
  });
});
