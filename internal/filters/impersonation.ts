/**
 * The impersonation filter (kube's WithImpersonation): a request with Impersonate-* headers runs as
 * the user they name, once the authenticated user has been allowed the impersonate verb on each
 * thing asked for: users (or serviceaccounts in the core group for system:serviceaccount:<ns>:<name>
 * users, in that namespace), groups, uids, and userextras/<key> in authentication.k8s.io. A refusal
 * is kube's 403 (`users "x" is forbidden: User "y" cannot impersonate resource "users" in API group
 * "" at the cluster scope`). The impersonated user gets system:authenticated (system:unauthenticated
 * for system:anonymous) unless the groups asked for already settle it, and a service account user
 * its service account groups when no group was asked for. The authenticated user is kept in the
 * request context as its impersonator. Runs after authentication, before authorization.
 */
import { forbiddenError } from './authorization.js';
import type { AuthorizationAttributes, Authorizer } from '../authz/interface.js';
import type { Logger } from '../observability/logging.js';
import type { UserInfo } from '../request/context.js';
import { impersonationRequests, stripImpersonationHeaders, type ImpersonationRequest } from './impersonation-headers.js';
import type { Filter } from './interface.js';
import type { RequestState } from './request-context.js';
import type { IncomingMessage } from 'node:http';

/** What the filter needs. */
export interface ImpersonationFilterDeps {
  readonly authorizer: Authorizer;
  readonly log?: Logger;
}

const authenticated = 'system:authenticated';
const unauthenticated = 'system:unauthenticated';

/** The attributes of "may requester impersonate r" (kube's actingAsAttributes). */
export function impersonationAttributes(requester: UserInfo, r: ImpersonationRequest): AuthorizationAttributes {
  const base = { user: requester, verb: 'impersonate', isResourceRequest: true, path: '', namespace: '', subresource: '' };
  switch (r.kind) {
    case 'ServiceAccount':
      return { ...base, apiGroup: '', apiVersion: 'v1', resource: 'serviceaccounts', namespace: r.namespace, name: r.name };
    case 'User':
      return { ...base, apiGroup: '', apiVersion: 'v1', resource: 'users', name: r.name };
    case 'Group':
      return { ...base, apiGroup: '', apiVersion: 'v1', resource: 'groups', name: r.name };
    case 'UserExtra':
      return { ...base, apiGroup: 'authentication.k8s.io', apiVersion: 'v1', resource: 'userextras', subresource: r.key, name: r.value };
    case 'UID':
      return { ...base, apiGroup: 'authentication.k8s.io', apiVersion: 'v1', resource: 'uids', name: r.uid };
  }
}

/** The user requests describe (requests already authorized; groupsSpecified: an Impersonate-Group was sent). */
export function impersonatedUser(requests: readonly ImpersonationRequest[]): UserInfo {
  const groupsSpecified = requests.some((r) => r.kind === 'Group');
  let name = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    if (r.kind === 'ServiceAccount') {
      name = `system:serviceaccount:${r.namespace}:${r.name}`;
      if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${r.namespace}`];
    } else if (r.kind === 'User') name = r.name;
    else if (r.kind === 'Group') groups.push(r.name);
    else if (r.kind === 'UserExtra') (extra[r.key] ??= []).push(r.value);
    else uid = r.uid;
  }
  if (name !== 'system:anonymous') {
    if (!groups.includes(authenticated) && !groups.includes(unauthenticated)) groups.push(authenticated);
  } else if (!groups.includes(unauthenticated)) groups.push(unauthenticated);
  return { name, groups, ...(uid ? { uid } : {}), ...(Object.keys(extra).length > 0 ? { extra } : {}) };
}

/** Builds the impersonation filter. */
export function withImpersonation(deps: ImpersonationFilterDeps): Filter {
  // Synchronous for a request that impersonates no one (nearly all): no promise per request.
  return (req, _res, state) => {
    const requests = impersonationRequests(req);
    if (!Array.isArray(requests)) throw requests;
    if (requests.length === 0) return undefined;
    return impersonate(deps, req, state, requests);
  };
}

/** Authorizes every requested attribute, then runs the request as the impersonated user. */
async function impersonate(deps: ImpersonationFilterDeps, req: IncomingMessage, state: RequestState, requests: ImpersonationRequest[]): Promise<void> {
  const requester = state.ctx.user;
  for (const r of requests) {
    const attrs = impersonationAttributes(requester, r);
    const d = await deps.authorizer.authorize(attrs);
    // Unlike the authorization filter, an authorizer's error is a refusal here, as in kube.
    if (d.decision !== 'Allow') {
      deps.log?.v(4, `Forbidden: ${req.url} reason: ${d.reason} err: ${d.error ?? ''}`);
      throw forbiddenError(attrs, d.reason);
    }
  }
  const user = impersonatedUser(requests);
  state.ctx.impersonator = requester;
  state.ctx.user = user;
  deps.log?.v(4, `${requester.name} is impersonating ${user.name}[${user.groups.join(',')}]`);
  stripImpersonationHeaders(req);
}
