/**
 * Micro-benchmark of one RBAC decision, the work RBAC adds to every request: the bootstrap policy
 * plus a few hundred bindings (users, groups and service accounts over 50 namespaces) in the
 * index, then millions of decisions of the common kinds: a service account allowed in its
 * namespace, a user allowed by a group's ClusterRoleBinding, cluster-admin through system:masters,
 * and a denial that visits every binding of the user's groups. Prints nanoseconds per decision.
 *
 *   node dist/bench/rbac-decision.js [bindings=500]
 */
import type { KubeObject } from '../api/meta/types.js';
import { bootstrapPolicy } from '../internal/authz/bootstrap-policy/policy.js';
import type { AuthorizationAttributes } from '../internal/authz/interface.js';
import { RbacAuthorizer } from '../internal/authz/rbac/authorizer.js';
import { RbacIndex } from '../internal/authz/rbac/index.js';
import type { UserInfo } from '../internal/request/context.js';

const rbac = 'rbac.authorization.k8s.io';
const bindings = Number(process.argv[2] ?? 500);
const namespaces = 50;

function build(): RbacIndex {
  const index = new RbacIndex();
  const policy = bootstrapPolicy();
  let rv = 1;
  const meta = <T extends KubeObject>(o: T): T => ((o.metadata.resourceVersion = String(rv++)), o);
  for (const r of [...policy.clusterRoles, ...policy.roles]) index.setRole(meta(r));
  for (const b of [...policy.clusterRoleBindings, ...policy.roleBindings]) index.setBinding(meta(b));
  // Aggregated roles get their rules from the controller; give edit the rules it aggregates.
  const edit = policy.clusterRoles.find((r) => r.metadata.name === 'system:aggregate-to-edit');
  const view = policy.clusterRoles.find((r) => r.metadata.name === 'system:aggregate-to-view');
  index.setRole(meta({ metadata: { name: 'edit' }, rules: [...(edit?.rules ?? []), ...(view?.rules ?? [])] } as KubeObject));
  index.setRole(meta({ metadata: { name: 'view' }, rules: [...(view?.rules ?? [])] } as KubeObject));
  for (let i = 0; i < bindings; i++) {
    const ns = `ns-${i % namespaces}`;
    const subject =
      i % 3 === 0
        ? { kind: 'ServiceAccount', name: `sa-${i}`, namespace: ns }
        : i % 3 === 1
          ? { kind: 'User', apiGroup: rbac, name: `user-${i}` }
          : { kind: 'Group', apiGroup: rbac, name: `team-${i % 20}` };
    index.setBinding(
      meta({
        metadata: { name: `b-${i}`, namespace: ns },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: i % 2 === 0 ? 'edit' : 'view' },
        subjects: [subject],
      } as never),
    );
  }
  return index;
}

function attrs(user: UserInfo, verb: string, resource: string, namespace: string, apiGroup = '', name = ''): AuthorizationAttributes {
  return { user, verb, isResourceRequest: true, path: '', namespace, apiGroup, apiVersion: 'v1', resource, subresource: '', name };
}

const authz = new RbacAuthorizer(build());
const sa: UserInfo = { name: 'system:serviceaccount:ns-6:sa-6', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns-6', 'system:authenticated'] };
const member: UserInfo = { name: 'dev', groups: ['team-4', 'team-9', 'system:authenticated'] };
const admin: UserInfo = { name: 'admin', groups: ['system:masters', 'system:authenticated'] };
const cases: Array<[string, AuthorizationAttributes, string]> = [
  ['service account, namespaced edit', attrs(sa, 'create', 'configmaps', 'ns-6'), 'Allow'],
  ['group member, namespaced view', attrs(member, 'get', 'pods', 'ns-4', '', 'p'), 'Allow'],
  ['system:masters, cluster-admin', attrs(admin, 'create', 'configmaps', 'ns-7'), 'Allow'],
  ['denied (every group binding visited)', attrs(member, 'delete', 'nodes', '', '', 'n'), 'NoOpinion'],
];

const iterations = 2_000_000;
for (const [label, a, want] of cases) {
  if (authz.authorize(a).decision !== want) throw new Error(`${label}: expected ${want}`);
  for (let i = 0; i < 100_000; i++) authz.authorize(a);
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) authz.authorize(a);
  const ns = Number(process.hrtime.bigint() - start) / iterations;
  console.log(`${label.padEnd(40)} ${ns.toFixed(0).padStart(6)} ns/decision`);
}
