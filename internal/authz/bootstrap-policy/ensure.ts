/**
 * The post-start hook "rbac/bootstrap-roles" (kube's EnsureRBACPolicy): at every start, reconciles
 * the bootstrap policy with what storage holds. Missing objects are created; existing ones gain
 * missing rules, subjects, labels and annotations without losing an administrator's additions;
 * objects annotated rbac.authorization.kubernetes.io/autoupdate=false are left alone. A pass
 * that fails (storage not ready, a write refused) is retried every second until one succeeds.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { ResourceClient } from '../../controllers/resource-client.js';
import type { Logger } from '../../observability/logging.js';
import { compactString } from '../rbac/compact.js';
import type { BindingObject, RoleObject } from '../rbac/types.js';
import { bootstrapPolicy, type BootstrapPolicy } from './policy.js';
import { primeAggregatedClusterRoles, primeSplitClusterRoleBindings } from './upgrade-priming.js';
import { reconcileBinding } from './reconcile-binding.js';
import { reconcileRole, type ReconcileOperation } from './reconcile-role.js';

/** Clients of the four RBAC resources. */
export interface BootstrapClients {
  readonly clusterRoles: ResourceClient;
  readonly clusterRoleBindings: ResourceClient;
  readonly roles: ResourceClient;
  readonly roleBindings: ResourceClient;
}

const maxAttempts = 3;

function keyOf(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

function byKey(items: readonly KubeObject[]): Map<string, KubeObject> {
  return new Map(items.map((o) => [keyOf(o), o]));
}

async function fresh(client: ResourceClient, obj: KubeObject): Promise<KubeObject | undefined> {
  try {
    return await client.get(obj.metadata.name ?? '', obj.metadata.namespace ?? '');
  } catch (err) {
    if (hasReason(err, 'NotFound')) return undefined;
    throw err;
  }
}

/** One kind of bootstrap object as reconciliation sees it: roles gain rules, bindings subjects. */
interface Reconciler {
  /** What "missing" lists in the log: "permissions" or "subjects". */
  readonly missingWhat: string;
  reconcile(existing: KubeObject, expected: KubeObject): { operation: ReconcileOperation; protected: boolean; object: KubeObject; missing: string };
}

const roles: Reconciler = {
  missingWhat: 'permissions',
  reconcile(existing, expected) {
    const r = reconcileRole(existing as RoleObject, expected as RoleObject);
    return { operation: r.operation, protected: r.protected, object: r.role, missing: r.missingRules.map(compactString).join(', ') };
  },
};

const bindings: Reconciler = {
  missingWhat: 'subjects',
  reconcile(existing, expected) {
    const r = reconcileBinding(existing as BindingObject, expected as BindingObject);
    const missing = r.missingSubjects.map((s) => `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`).join(', ');
    return { operation: r.operation, protected: r.protected, object: r.binding, missing };
  },
};

/**
 * Brings one object in line with expected: creates it when missing, adds what it lacks, replaces a
 * binding whose roleRef changed. A write that loses a race (the object appeared, changed or went
 * away meanwhile) starts over from a fresh read, a few times at most.
 */
async function reconcileOne(client: ResourceClient, kind: Reconciler, what: string, expected: KubeObject, existing: KubeObject | undefined, log: Logger, attempt = 1): Promise<void> {
  const name = expected.metadata.name ?? '';
  const ns = expected.metadata.namespace ?? '';
  const again = async (): Promise<void> => {
    if (attempt >= maxAttempts) throw new Error(`${what} kept changing while it was reconciled`);
    await reconcileOne(client, kind, what, expected, await fresh(client, expected), log, attempt + 1);
  };
  try {
    if (!existing) {
      await client.create(expected);
      log.v(2, `created ${what}`);
      return;
    }
    const result = kind.reconcile(existing, expected);
    if (result.operation === 'none') return;
    if (result.protected) {
      log.warn(`skipped reconcile-protected ${what} with missing ${kind.missingWhat}: [${result.missing}]`);
      return;
    }
    if (result.operation === 'recreate') {
      // The roleRef of a binding cannot change: replace the binding, only if it is still the one read.
      await client.delete(name, ns, { uid: existing.metadata.uid ?? '' });
      await client.create(expected);
      log.v(2, `recreated ${what} with a new roleRef`);
      return;
    }
    await client.update(name, ns, (current) => {
      const r = kind.reconcile(current, expected);
      return r.protected || r.operation === 'recreate' ? current : r.object;
    });
    log.v(2, `updated ${what} with additional ${kind.missingWhat}: [${result.missing}]`);
  } catch (err) {
    if (!hasReason(err, 'NotFound') && !hasReason(err, 'Conflict') && !hasReason(err, 'AlreadyExists')) throw err;
    await again();
  }
}

async function each<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<boolean> {
  let ok = true;
  // A few writes in flight at once: the first start creates over a hundred objects.
  const width = 8;
  for (let i = 0; i < items.length; i += width) {
    const results = await Promise.allSettled(items.slice(i, i + width).map(fn));
    if (results.some((r) => r.status === 'rejected')) ok = false;
  }
  return ok;
}

/**
 * One reconciliation pass (kube's ensureRBACPolicy). Throws when storage does not answer the
 * first lists; resolves false when some object could not be reconciled (each failure logged).
 */
export async function reconcileBootstrapPolicy(clients: BootstrapClients, log: Logger, policy: BootstrapPolicy = bootstrapPolicy()): Promise<boolean> {
  const clusterRoles = byKey(await clients.clusterRoles.list());
  const clusterRoleBindings = byKey(await clients.clusterRoleBindings.list());
  await primeAggregatedClusterRoles(clients.clusterRoles, clusterRoles, log);
  await primeSplitClusterRoleBindings(clients.clusterRoleBindings, clusterRoleBindings, log);
  const existingRoles = byKey(await clients.roles.list());
  const existingRoleBindings = byKey(await clients.roleBindings.list());

  const step = (client: ResourceClient, kind: Reconciler, resource: string, have: Map<string, KubeObject>) => async (o: KubeObject) => {
    const what = `${resource}.rbac.authorization.k8s.io/${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name ?? ''}`;
    try {
      await reconcileOne(client, kind, what, o, have.get(keyOf(o)), log);
    } catch (err) {
      log.warn(`unable to reconcile ${what}: ${(err as Error).message}`);
      throw err;
    }
  };
  const results = [
    await each(policy.clusterRoles, step(clients.clusterRoles, roles, 'clusterrole', clusterRoles)),
    await each(policy.clusterRoleBindings, step(clients.clusterRoleBindings, bindings, 'clusterrolebinding', clusterRoleBindings)),
    await each(policy.roles, step(clients.roles, roles, 'role', existingRoles)),
    await each(policy.roleBindings, step(clients.roleBindings, bindings, 'rolebinding', existingRoleBindings)),
  ];
  return results.every(Boolean);
}

/**
 * Reconciles until a pass succeeds (true) or signal aborts (false), retrying every second while
 * storage is not ready or a write fails.
 */
export async function ensureBootstrapPolicy(clients: BootstrapClients, log: Logger, signal: AbortSignal, retryMs = 1000): Promise<boolean> {
  while (!signal.aborted) {
    try {
      if (await reconcileBootstrapPolicy(clients, log)) return true;
    } catch (err) {
      if (signal.aborted) return false;
      log.warn(`unable to initialize RBAC bootstrap policy, retrying: ${(err as Error).message}`);
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, retryMs);
      t.unref();
      signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
    });
  }
  return false;
}
