/**
 * The authorization fuzz campaign's traffic with the server's RBAC API, as an admin: replacing one
 * generated policy by the next, waiting until the authorizer has seen it (sentinel grants made
 * after the policy, of each of the four kinds, must take effect), and reading the bootstrap policy
 * back as data for the reference evaluator.
 */
import type { ServerFixture } from '../../support/server.js';
import type { GeneratedPolicy } from './authz-arbitraries.js';
import { NAMESPACES, POLICY_LABEL } from './authz-arbitraries.js';
import { ruleKey, type BindingObject, type RbacPolicy, type ReferenceRbac, type RoleObject } from './rbac-reference.js';

const rbac = '/apis/rbac.authorization.k8s.io/v1';

type Admin = Record<string, string>;

async function must(fx: ServerFixture, method: string, path: string, headers: Admin, body?: unknown, ok: number[] = [200, 201]): Promise<any> {
  const res = await fx.request(method, path, { headers, ...(body !== undefined ? { body } : {}) });
  if (!ok.includes(res.status)) throw new Error(`${method} ${path} as admin: ${res.status} ${res.text.slice(0, 400)}`);
  return res.text ? res.json() : undefined;
}

/** Asks the server, as admin, whether attributes are allowed (a SubjectAccessReview). */
export async function reviewAllowed(fx: ServerFixture, admin: Admin, spec: Record<string, unknown>): Promise<{ allowed: boolean; raw: unknown }> {
  const body = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec };
  const res = await must(fx, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', admin, body);
  return { allowed: res.status?.allowed === true, raw: res.status };
}

/** Deletes every object of the previous policy (by POLICY_LABEL) and creates those of policy. */
export async function replacePolicy(fx: ServerFixture, admin: Admin, policy: GeneratedPolicy): Promise<void> {
  const sel = `labelSelector=${encodeURIComponent(`${POLICY_LABEL}=true`)}`;
  await Promise.all([
    must(fx, 'DELETE', `${rbac}/clusterrolebindings?${sel}`, admin),
    must(fx, 'DELETE', `${rbac}/clusterroles?${sel}`, admin),
    ...NAMESPACES.flatMap((ns) => [must(fx, 'DELETE', `${rbac}/namespaces/${ns}/rolebindings?${sel}`, admin), must(fx, 'DELETE', `${rbac}/namespaces/${ns}/roles?${sel}`, admin)]),
  ]);
  const nsPath = (o: RoleObject | BindingObject, plural: string) => `${rbac}/namespaces/${o.metadata.namespace}/${plural}`;
  await Promise.all([
    ...policy.clusterRoles.map((o) => must(fx, 'POST', `${rbac}/clusterroles`, admin, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', ...o })),
    ...policy.roles.map((o) => must(fx, 'POST', nsPath(o, 'roles'), admin, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', ...o })),
    ...policy.clusterRoleBindings.map((o) => must(fx, 'POST', `${rbac}/clusterrolebindings`, admin, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', ...o })),
    ...policy.roleBindings.map((o) => must(fx, 'POST', nsPath(o, 'rolebindings'), admin, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', ...o })),
  ]);
}

/** The server's RBAC objects outside the generated policy: the bootstrap policy, read as data. */
export async function readBootstrapPolicy(fx: ServerFixture, admin: Admin): Promise<RbacPolicy> {
  const sel = `labelSelector=${encodeURIComponent(`!${POLICY_LABEL}`)}`;
  const [clusterRoles, roles, clusterRoleBindings, roleBindings] = await Promise.all(
    ['clusterroles', 'roles', 'clusterrolebindings', 'rolebindings'].map(async (p) => (await must(fx, 'GET', `${rbac}/${p}?${sel}`, admin)).items),
  );
  return { clusterRoles, roles, clusterRoleBindings, roleBindings };
}

/** The server's stored rules of every aggregated ClusterRole that differ from the reference's (empty when converged). */
export async function aggregationDiffs(fx: ServerFixture, admin: Admin, ref: ReferenceRbac): Promise<string[]> {
  const items: RoleObject[] = (await must(fx, 'GET', `${rbac}/clusterroles`, admin)).items;
  const diffs: string[] = [];
  for (const cr of items) {
    if (!cr.aggregationRule) continue;
    const want = new Set((ref.clusterRoleRules(cr.metadata.name) ?? []).map(ruleKey));
    const have = new Set((cr.rules ?? []).map(ruleKey));
    if (want.size !== have.size || [...want].some((k) => !have.has(k))) {
      diffs.push(`ClusterRole ${cr.metadata.name}: server has ${JSON.stringify([...have])}, reference aggregates ${JSON.stringify([...want])}`);
    }
  }
  return diffs;
}

/**
 * Creates sentinel grants of all four kinds (after the policy, so each kind's watch delivers the
 * policy first) and waits until both take effect; RBAC reads the policy from the watch cache.
 */
export async function awaitAuthorizer(fx: ServerFixture, admin: Admin, round: number, deadlineMs = 15_000): Promise<void> {
  const name = `fz-sentinel-${round}`;
  const labels = { [POLICY_LABEL]: 'true' };
  const subjects = [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name }];
  const ref = (kind: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });
  await Promise.all([
    must(fx, 'POST', `${rbac}/namespaces/ns0/roles`, admin, { metadata: { name, labels }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: [name] }] }),
    must(fx, 'POST', `${rbac}/clusterroles`, admin, { metadata: { name, labels }, rules: [{ verbs: ['get'], nonResourceURLs: [`/${name}`] }] }),
  ]);
  await Promise.all([
    must(fx, 'POST', `${rbac}/namespaces/ns0/rolebindings`, admin, { metadata: { name, labels }, roleRef: ref('Role'), subjects }),
    must(fx, 'POST', `${rbac}/clusterrolebindings`, admin, { metadata: { name, labels }, roleRef: ref('ClusterRole'), subjects }),
  ]);
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const [a, b] = await Promise.all([
      reviewAllowed(fx, admin, { user: name, resourceAttributes: { namespace: 'ns0', verb: 'get', resource: 'configmaps', name } }),
      reviewAllowed(fx, admin, { user: name, nonResourceAttributes: { path: `/${name}`, verb: 'get' } }),
    ]);
    if (a.allowed && b.allowed) return;
    if (Date.now() > deadline) throw new Error(`the authorizer did not see sentinel ${name} within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
