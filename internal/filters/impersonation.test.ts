import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { StatusError } from '../apierrors/status-error.js';
import type { AuthorizationAttributes, AuthorizationDecision, Authorizer } from '../authz/interface.js';
import { internalContext, type UserInfo } from '../request/context.js';
import { impersonationRequests, splitServiceAccountUsername } from './impersonation-headers.js';
import { impersonatedUser, withImpersonation } from './impersonation.js';
import type { RequestState } from './request-context.js';

/** A request with these header lines (name, value, name, value, ...), as Node's rawHeaders keeps them. */
function request(...raw: string[]): IncomingMessage {
  const headers: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) headers[(raw[i] as string).toLowerCase()] = raw[i + 1] as string;
  return { rawHeaders: raw, headers, url: '/api/v1/pods' } as unknown as IncomingMessage;
}

const requester: UserInfo = { name: 'jane', groups: ['system:authenticated'] };

/** An authorizer that records what it is asked and denies the resources in deny. */
class RecordingAuthorizer implements Authorizer {
  readonly name = 'recording';
  readonly asked: AuthorizationAttributes[] = [];
  constructor(private readonly deny: readonly string[] = [], private readonly reason = 'not today') {}
  authorize(a: AuthorizationAttributes): AuthorizationDecision {
    this.asked.push(a);
    return this.deny.includes(a.resource) ? { decision: 'NoOpinion', reason: this.reason } : { decision: 'Allow', reason: '' };
  }
}

async function run(authorizer: Authorizer, req: IncomingMessage): Promise<RequestState> {
  const ctx = internalContext({ verb: 'list', resource: 'pods' });
  ctx.user = requester;
  const state = { ctx, path: '/api/v1/pods', query: new URLSearchParams() } as unknown as RequestState;
  await withImpersonation({ authorizer })(req, {} as ServerResponse, state);
  return state;
}

describe('impersonation headers', () => {
  it('reads user, every group line, extra keys (lowercased, percent-decoded) and uid, in kube order', () => {
    const reqs = impersonationRequests(
      request('Impersonate-Uid', 'u-1', 'Impersonate-Group', 'a,b', 'impersonate-group', 'c', 'Impersonate-Extra-Scopes%2Fx', 'one', 'Impersonate-Extra-scopes%2fx', 'two', 'Impersonate-User', 'bob'),
    );
    assert.deepEqual(reqs, [
      { kind: 'User', name: 'bob' },
      { kind: 'Group', name: 'a,b' },
      { kind: 'Group', name: 'c' },
      { kind: 'UserExtra', key: 'scopes/x', value: 'one' },
      { kind: 'UserExtra', key: 'scopes/x', value: 'two' },
      { kind: 'UID', uid: 'u-1' },
    ]);
    assert.deepEqual(impersonationRequests(request('Accept', 'application/json')), []);
  });

  it('recognizes service account users by kube rules', () => {
    assert.deepEqual(splitServiceAccountUsername('system:serviceaccount:ns1:builder'), { namespace: 'ns1', name: 'builder' });
    assert.equal(splitServiceAccountUsername('system:serviceaccount:ns1'), undefined);
    assert.equal(splitServiceAccountUsername('system:serviceaccount:NS:builder'), undefined);
    assert.equal(splitServiceAccountUsername('system:serviceaccount:ns:a:b'), undefined);
  });

  it('refuses groups, extra or a uid without a user (400, kube text)', () => {
    const err = impersonationRequests(request('Impersonate-Group', 'g', 'Impersonate-Extra-k', 'v', 'Impersonate-Uid', 'u'));
    assert.ok(err instanceof StatusError);
    assert.equal(err.status.code, 400);
    assert.equal(err.message, 'requested [{Group  g    } {UserExtra  v  authentication.k8s.io/v1  k} {UID  u  authentication.k8s.io/v1  }] without impersonating a user');
  });
});

describe('impersonated user', () => {
  it('adds system:authenticated unless a group settles it; anonymous gets system:unauthenticated', () => {
    assert.deepEqual(impersonatedUser([{ kind: 'User', name: 'bob' }]), { name: 'bob', groups: ['system:authenticated'] });
    assert.deepEqual(impersonatedUser([{ kind: 'User', name: 'bob' }, { kind: 'Group', name: 'system:unauthenticated' }]).groups, ['system:unauthenticated']);
    assert.deepEqual(impersonatedUser([{ kind: 'User', name: 'system:anonymous' }]).groups, ['system:unauthenticated']);
  });

  it('gives a service account its groups unless groups were asked for', () => {
    assert.deepEqual(impersonatedUser([{ kind: 'ServiceAccount', namespace: 'ns1', name: 'sa' }]), {
      name: 'system:serviceaccount:ns1:sa',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
    });
    assert.deepEqual(impersonatedUser([{ kind: 'ServiceAccount', namespace: 'ns1', name: 'sa' }, { kind: 'Group', name: 'g' }]).groups, ['g', 'system:authenticated']);
  });
});

describe('impersonation filter', () => {
  it('authorizes each request with the impersonate verb and runs as the user, keeping the impersonator', async () => {
    const authz = new RecordingAuthorizer();
    const req = request('Impersonate-User', 'system:serviceaccount:ns1:sa', 'Impersonate-Group', 'g', 'Impersonate-Extra-Team', 'blue', 'Impersonate-Uid', 'id-7');
    const state = await run(authz, req);
    assert.deepEqual(
      authz.asked.map((a) => [a.verb, a.apiGroup, a.resource, a.subresource, a.namespace, a.name, a.user.name]),
      [
        ['impersonate', '', 'serviceaccounts', '', 'ns1', 'sa', 'jane'],
        ['impersonate', '', 'groups', '', '', 'g', 'jane'],
        ['impersonate', 'authentication.k8s.io', 'userextras', 'team', '', 'blue', 'jane'],
        ['impersonate', 'authentication.k8s.io', 'uids', '', '', 'id-7', 'jane'],
      ],
    );
    assert.deepEqual(state.ctx.user, { name: 'system:serviceaccount:ns1:sa', uid: 'id-7', groups: ['g', 'system:authenticated'], extra: { team: ['blue'] } });
    assert.equal(state.ctx.impersonator, requester);
    assert.equal(req.headers['impersonate-user'], undefined);
  });

  it('answers a refusal with kube 403 message and leaves the user alone', async () => {
    const req = request('Impersonate-User', 'bob');
    await assert.rejects(run(new RecordingAuthorizer(['users'], ''), req), (err: StatusError) => {
      assert.equal(err.status.code, 403);
      assert.equal(err.message, 'users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
      assert.deepEqual(err.status.details, { name: 'bob', kind: 'users' });
      return true;
    });
    await assert.rejects(run(new RecordingAuthorizer(['userextras']), request('Impersonate-User', 'bob', 'Impersonate-Extra-Team', 'blue')), {
      message: 'userextras.authentication.k8s.io "blue" is forbidden: User "jane" cannot impersonate resource "userextras/team" in API group "authentication.k8s.io" at the cluster scope: not today',
    });
    await assert.rejects(run(new RecordingAuthorizer(['serviceaccounts']), request('Impersonate-User', 'system:serviceaccount:ns1:sa')), {
      message: 'serviceaccounts "sa" is forbidden: User "jane" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns1": not today',
    });
  });

  it('does nothing without impersonation headers', async () => {
    const authz = new RecordingAuthorizer();
    const state = await run(authz, request('Authorization', 'Bearer x'));
    assert.equal(authz.asked.length, 0);
    assert.equal(state.ctx.user, requester);
    assert.equal(state.ctx.impersonator, undefined);
  });
});
