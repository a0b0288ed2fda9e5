/**
 * Builds the server's authorizer from --authorization-mode, as kube-apiserver does: the
 * privileged-groups authorizer first (system:masters may do anything), then one authorizer per
 * mode in the order given, joined in a union where the first Allow or Deny decides. Each mode's
 * authorizer counts its decisions in apiserver_authorization_decisions_total under its type and
 * name (the lowercased mode; "webhook" for the flag-configured webhook). Also the rule resolver
 * that SelfSubjectRulesReview and RBAC's escalation check use.
 */
import type { Logger } from '../observability/logging.js';
import type { ServerMetrics } from '../observability/metrics.js';
import type { RestStorage } from '../registry/interface.js';
import { defaultAuthorizationOptions, type AuthorizationMode, type AuthorizationOptions } from '../server/options/authorization.js';
import { defaultBackoff, WebhookClient, type Backoff } from '../webhook/client.js';
import { loadWebhookKubeconfig } from '../webhook/kubeconfig.js';
import { AbacAuthorizer } from './abac/authorizer.js';
import { loadPolicyFile } from './abac/policy.js';
import { alwaysAllow, alwaysDeny } from './always.js';
import { InstrumentedAuthorizer } from './instrumented.js';
import type { Authorizer, RuleAuthorizer } from './interface.js';
import { NodeAuthorizer } from './node/authorizer.js';
import { GraphPopulator } from './node/graph-populator.js';
import { PrivilegedGroupsAuthorizer } from './privileged-groups.js';
import { RbacPolicy } from './rbac/policy-cache.js';
import type { RbacPolicyHandle } from './rbac/types.js';
import { UnionAuthorizer } from './union.js';
import { WebhookAuthorizer } from './webhook/authorizer.js';

/** What authorizers may use of the running server. */
export interface AuthorizationDeps {
  /** The storage of a served resource (stored form), e.g. ('rbac.authorization.k8s.io', 'roles'). */
  readonly storageOf: (group: string, resource: string, subresource?: string) => RestStorage | undefined;
  readonly log: Logger;
  readonly metrics?: ServerMetrics;
  /** The authorization webhook's retry policy (kube's DefaultAuthWebhookRetryBackoff unless a test shortens it). */
  readonly webhookBackoff?: Backoff;
}

/** The built authorizers. */
export interface BuiltAuthorization {
  /** The union the authorization filter asks. */
  readonly authorizer: RuleAuthorizer;
  /** Resolves once every authorizer has loaded what it decides from (the Node graph, RBAC's roles and bindings). */
  readonly ready: Promise<void>;
  /** Stops informers, caches and webhook connections. */
  stop(): void;
  /**
   * RBAC's policy whenever the rbac.authorization.k8s.io resources are served, whatever the modes:
   * the escalation check and the bootstrap roles work in every mode, as in kube.
   */
  readonly rbac?: RbacPolicyHandle;
}

/** The webhook's per-call timeout (kube's implicit 30s for the flag-configured webhook). */
const webhookTimeoutMs = 30_000;

/** What building one mode may register: things to stop, and loads to wait for before ready. */
interface ModeContext {
  readonly options: AuthorizationOptions;
  readonly deps: AuthorizationDeps;
  /** RBAC's policy (informers, index, bootstrap roles); undefined when RBAC's resources are not served. */
  readonly rbac: RbacPolicy | undefined;
  onStop(fn: () => void): void;
  waitFor(loaded: Promise<void>): void;
}

/** The authorizer's name in metrics, as kube names the authorizers it builds from flags. */
function authorizerName(mode: AuthorizationMode): string {
  return mode === 'Webhook' ? 'webhook' : mode.toLowerCase();
}

async function buildMode(mode: AuthorizationMode, ctx: ModeContext): Promise<Authorizer> {
  const { options, deps } = ctx;
  switch (mode) {
    case 'RBAC':
      if (!ctx.rbac) throw new Error('--authorization-mode=RBAC needs the rbac.authorization.k8s.io resources');
      return ctx.rbac.authorizer;
    case 'AlwaysAllow':
      return alwaysAllow;
    case 'AlwaysDeny':
      return alwaysDeny;
    case 'ABAC': {
      if (!options.policyFile) throw new Error("authorization-mode ABAC's authorization policy file not passed");
      return new AbacAuthorizer(await loadPolicyFile(options.policyFile));
    }
    case 'Webhook': {
      if (!options.webhookConfigFile) throw new Error("authorization-mode Webhook's authorization config file not passed");
      const client = new WebhookClient(await loadWebhookKubeconfig(options.webhookConfigFile), {
        timeoutMs: webhookTimeoutMs,
        backoff: deps.webhookBackoff ?? defaultBackoff,
      });
      ctx.onStop(() => client.close());
      return new WebhookAuthorizer({
        client,
        version: options.webhookVersion,
        authorizedTTLMs: options.webhookCacheAuthorizedTTLMs,
        unauthorizedTTLMs: options.webhookCacheUnauthorizedTTLMs,
        name: authorizerName(mode),
        log: deps.log,
        ...(deps.metrics ? { metrics: deps.metrics } : {}),
      });
    }
    case 'Node': {
      const populator = new GraphPopulator((group, resource) => deps.storageOf(group, resource), deps.log);
      ctx.waitFor(populator.start());
      ctx.onStop(() => populator.stop());
      return new NodeAuthorizer(populator.graph, deps.log);
    }
  }
}

/**
 * Builds the authorizers for options (undefined: every flag's default). Rejects, after undoing what
 * it started, when a mode cannot be built (an unreadable or invalid ABAC policy file or webhook
 * kubeconfig): the server must not start then.
 */
export async function buildAuthorization(options: AuthorizationOptions | undefined, deps: AuthorizationDeps): Promise<BuiltAuthorization> {
  const opts = options ?? defaultAuthorizationOptions;
  const stops: Array<() => void> = [];
  const loads: Promise<void>[] = [];
  const stop = (): void => {
    for (const s of stops.splice(0)) s();
  };
  // RBAC's policy runs whenever its resources are served, whatever the modes: the escalation check
  // and the bootstrap roles work in every mode, as in kube.
  const rbac = RbacPolicy.start(deps);
  if (rbac) {
    stops.push(() => rbac.stop());
    loads.push(rbac.ready);
  }
  const ctx: ModeContext = { options: opts, deps, rbac, onStop: (fn) => stops.push(fn), waitFor: (p) => loads.push(p) };
  const members: Authorizer[] = [new PrivilegedGroupsAuthorizer()];
  try {
    for (const mode of opts.modes) {
      const a = await buildMode(mode, ctx);
      members.push(deps.metrics ? new InstrumentedAuthorizer(a, mode, authorizerName(mode), deps.metrics.authorizationDecisions) : a);
    }
  } catch (err) {
    stop();
    throw err;
  }
  return { authorizer: new UnionAuthorizer(members), ready: Promise.all(loads).then(() => undefined), stop, ...(rbac ? { rbac } : {}) };
}
