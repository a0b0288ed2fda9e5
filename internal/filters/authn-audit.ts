/**
 * Failed authentication is audited (kube's WithFailedAuthenticationAudit): a request the
 * authentication filter answers 401 is evaluated against the policy with no user, and when audited
 * gets one event, at stage ResponseStarted, carrying the 401's Status (no RequestReceived, no
 * ResponseComplete, as kube's failed-authentication handler records it). The event's user is
 * empty ({}), since nobody was authenticated.
 */
import { StatusError } from '../apierrors/status-error.js';
import type { AuditUserInfo } from '../audit/interface.js';
import { RequestAuditor } from '../audit/request-auditor.js';
import type { UserInfo } from '../request/context.js';
import { attachAuditor, auditAttributes, eventBase, type AuditFilterDeps } from './audit.js';
import type { Filter } from './interface.js';
import type { RequestState } from './request-context.js';

const noUser: UserInfo = { name: '', groups: [] };
// Go writes the zero UserInfo as {}: every field is omitempty.
const emptyAuditUser = {} as AuditUserInfo;

/** Wraps the authentication filter so that its 401 answers are audited; authentication itself when auditing is off. */
export function withFailedAuthenticationAudit(authentication: Filter, deps: AuditFilterDeps | undefined): Filter {
  if (!deps) return authentication;
  const sink = { backend: deps.backend, metrics: deps.metrics };
  const failed = (req: Parameters<Filter>[0], res: Parameters<Filter>[1], state: RequestState, err: unknown): never => {
    if (err instanceof StatusError && err.status.code === 401) {
      const ctx = state.ctx;
      const requirement = deps.policy.evaluate(auditAttributes(ctx, noUser));
      deps.metrics.observePolicyLevel(requirement.level);
      if (requirement.level !== 'None') {
        const auditor = new RequestAuditor(eventBase(req, ctx, emptyAuditUser), requirement, sink);
        if (ctx.authenticationAnnotations) for (const [k, v] of Object.entries(ctx.authenticationAnnotations)) auditor.annotate(k, v);
        attachAuditor(auditor, res, state, 'ResponseStarted', false);
      }
    }
    throw err;
  };
  return (req, res, state) => {
    let pending: void | Promise<void>;
    try {
      pending = authentication(req, res, state);
    } catch (err) {
      return failed(req, res, state, err);
    }
    return pending instanceof Promise ? pending.catch((err: unknown) => failed(req, res, state, err)) : pending;
  };
}
