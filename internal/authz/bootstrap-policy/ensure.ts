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
import { reconcileRole } from './reconcile-role.js';

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

async function reconcileOneRole(client: ResourceClient, what: string, expected: RoleObject, existing: RoleObject | undefined, log: Logger, attempt = 1): Promise<void> {
  const name = expected.metadata.name ?? '';
  const ns = expected.metadata.namespace ?? '';
  const again = async (): Promise<void> => {
    if (attempt >= maxAttempts) throw new Error(`${what} kept changing while it was reconciled`);
    await reconcileOneRole(client, what, expected, (await fresh(client, expected)) as RoleObject | undefined, log, attempt + 1);
  };
  if (!existing) {
    try {
      await client.create(expected);
      log.v(2, `created ${what}`);
    } catch (err) {
      if (!hasReason(err, 'AlreadyExists')) throw err;
      await again();
    }
    return;
  }
  const result = reconcileRole(existing, expected);
  if (result.operation === 'none') return;
  const missing = result.missingRules.map(compactString).join(', ');
  if (result.protected) {
    log.warn(`skipped reconcile-protected ${what} with missing permissions: [${missing}]`);
    return;
  }
  try {
    await client.update(name, ns, (current) => {
      const r = reconcileRole(current as RoleObject, expected);
      return r.protected ? current : r.role;
    });
    log.v(2, `updated ${what} with additional permissions: [${missing}]`);
  } catch (err) {
    if (!hasReason(err, 'NotFound')) throw err;
    await again();
  }
}

async function reconcileOneBinding(client: ResourceClient, what: string, expected: BindingObject, existing: BindingObject | undefined, log: Logger, attempt = 1): Promise<void> {
  const name = expected.metadata.name ?? '';
  const ns = expected.metadata.namespace ?? '';
  const again = async (): Promise<void> => {
    if (attempt >= maxAttempts) throw new Error(`${what} kept changing while it was reconciled`);
    await reconcileOneBinding(client, what, expected, (await fresh(client, expected)) as BindingObject | undefined, log, attempt + 1);
  };
  if (!existing) {
    try {
      await client.create(expected);
      log.v(2, `created ${what}`);
    } catch (err) {
      if (!hasReason(err, 'AlreadyExists')) throw err;
      await again();
    }
    return;
  }
  const result = reconcileBinding(existing, expected);
  if (result.operation === 'none') return;
  const missing = result.missingSubjects.map((s) => `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`).join(', ');
  if (result.protected) {
    log.warn(`skipped reconcile-protected ${what} with missing subjects: [${missing}]`);
    return;
  }
  try {
    if (result.operation === 'recreate') {
      // The roleRef of a binding cannot change: replace the binding, only if it is still the one read.
      await client.delete(name, ns, { uid: existing.metadata.uid ?? '' });
      await client.create(expected);
      log.v(2, `recreated ${what} with a new roleRef`);
      return;
    }
    await client.update(name, ns, (current) => {
      const r = reconcileBinding(current as BindingObject, expected);
      return r.protected || r.operation === 'recreate' ? current : r.binding;
    });
    log.v(2, `updated ${what} with additional subjects: [${missing}]`);
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
  const roles = byKey(await clients.roles.list());
  const roleBindings = byKey(await clients.roleBindings.list());

  const roleStep = (client: ResourceClient, kind: string, have: Map<string, KubeObject>) => async (r: RoleObject) => {
    const what = `${kind}.rbac.authorization.k8s.io/${r.metadata.namespace ? `${r.metadata.namespace}/` : ''}${r.metadata.name ?? ''}`;
    try {
      await reconcileOneRole(client, what, r, have.get(keyOf(r)) as RoleObject | undefined, log);
    } catch (err) {
      log.warn(`unable to reconcile ${what}: ${(err as Error).message}`);
      throw err;
    }
  };
  const bindingStep = (client: ResourceClient, kind: string, have: Map<string, KubeObject>) => async (b: BindingObject) => {
    const what = `${kind}.rbac.authorization.k8s.io/${b.metadata.namespace ? `${b.metadata.namespace}/` : ''}${b.metadata.name ?? ''}`;
    try {
      await reconcileOneBinding(client, what, b, have.get(keyOf(b)) as BindingObject | undefined, log);
    } catch (err) {
      log.warn(`unable to reconcile ${what}: ${(err as Error).message}`);
      throw err;
    }
  };
  const results = [
    await each(policy.clusterRoles, roleStep(clients.clusterRoles, 'clusterrole', clusterRoles)),
    await each(policy.clusterRoleBindings, bindingStep(clients.clusterRoleBindings, 'clusterrolebinding', clusterRoleBindings)),
    await each(policy.roles, roleStep(clients.roles, 'role', roles)),
    await each(policy.roleBindings, bindingStep(clients.roleBindings, 'rolebinding', roleBindings)),
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
