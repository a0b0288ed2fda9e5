/**
 * Builds the server's authorizer from --authorization-mode: one authorizer per mode, in the order
 * given, joined in a union where the first Allow or Deny decides. Also the rule resolver that
 * SelfSubjectRulesReview and RBAC's escalation check use.
 */
import type { Logger } from '../observability/logging.js';
import type { ServerMetrics } from '../observability/metrics.js';
import type { RestStorage } from '../registry/interface.js';
import { defaultAuthorizationOptions, type AuthorizationMode, type AuthorizationOptions } from '../server/options/authorization.js';
import { alwaysAllow, alwaysDeny } from './always.js';
import type { Authorizer, RuleAuthorizer } from './interface.js';
import { RbacPolicy } from './rbac/policy-cache.js';
import type { RbacPolicyHandle } from './rbac/types.js';
import { UnionAuthorizer } from './union.js';

/** What authorizers may use of the running server. */
export interface AuthorizationDeps {
  /** The storage of a served resource (stored form), e.g. ('rbac.authorization.k8s.io', 'roles'). */
  readonly storageOf: (group: string, resource: string, subresource?: string) => RestStorage | undefined;
  readonly log: Logger;
  readonly metrics?: ServerMetrics;
}

/** The built authorizers. */
export interface BuiltAuthorization {
  /** The union the authorization filter asks. */
  readonly authorizer: RuleAuthorizer;
  /** Resolves once every authorizer has loaded what it decides from (RBAC's roles and bindings). */
  readonly ready: Promise<void>;
  /** Stops informers and caches. */
  stop(): void;
  /**
   * RBAC's policy whenever the rbac.authorization.k8s.io resources are served, whatever the modes:
   * the escalation check and the bootstrap roles work in every mode, as in kube.
   */
  readonly rbac?: RbacPolicyHandle;
}

function build(mode: AuthorizationMode, rbac: RbacPolicy | undefined): Authorizer {
  switch (mode) {
    case 'RBAC':
      if (!rbac) throw new Error('--authorization-mode=RBAC needs the rbac.authorization.k8s.io resources');
      return rbac.authorizer;
    case 'AlwaysAllow':
      return alwaysAllow;
    case 'AlwaysDeny':
      return alwaysDeny;
    default:
      throw new Error(`--authorization-mode=${mode} is not available in this build`);
  }
}

/** Builds the authorizers for options (undefined: every flag's default). */
export async function buildAuthorization(options: AuthorizationOptions | undefined, deps: AuthorizationDeps): Promise<BuiltAuthorization> {
  const opts = options ?? defaultAuthorizationOptions;
  const rbac = RbacPolicy.start(deps);
  const members = opts.modes.map((m) => build(m, rbac));
  return {
    authorizer: new UnionAuthorizer(members),
    ready: rbac?.ready ?? Promise.resolve(),
    stop: () => rbac?.stop(),
    ...(rbac ? { rbac } : {}),
  };
}
