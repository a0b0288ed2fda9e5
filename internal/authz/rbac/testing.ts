/**
 * Test fixture: the four RBAC resources over a fresh prefix of a real etcd, with the server's
 * authorization built over them (--authorization-mode=RBAC, so the bootstrap policy is reconciled)
 * and the ClusterRole aggregation controller running, as in a server. Test code only.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { uniquePrefix, type EtcdFixture } from '../../../test/support/etcd.js';
import { ClusterRoleAggregationController } from '../../controllers/clusterrole-aggregation.js';
import { createLogger } from '../../observability/logging.js';
import type { RestStorage } from '../../registry/interface.js';
import { clusterRoleBindingsModule } from '../../registry/rbac/clusterrolebindings/store.js';
import { clusterRolesModule } from '../../registry/rbac/clusterroles/store.js';
import { roleBindingsModule } from '../../registry/rbac/rolebindings/store.js';
import { rolesModule } from '../../registry/rbac/roles/store.js';
import type { ResourceRegistration, SecurityHandles } from '../../registry/registration.js';
import { internalContext } from '../../request/context.js';
import { jsonCodec } from '../../storage/codec.js';
import { Etcd3Store } from '../../storage/etcd3/store.js';
import { buildAuthorization, type BuiltAuthorization } from '../build.js';
import { defaultAuthorizationOptions } from '../../server/options/authorization.js';

/** The running fixture. */
export interface RbacFixture {
  readonly regs: ReadonlyMap<string, ResourceRegistration>;
  readonly security: SecurityHandles;
  readonly authorization: BuiltAuthorization;
  readonly storageOf: (group: string, resource: string) => RestStorage | undefined;
  /** Resolves when pred holds, polling; rejects after ms. */
  until(pred: () => boolean | Promise<boolean>, ms?: number): Promise<void>;
  stop(): void;
}

/** Starts RBAC over a unique prefix of fx's etcd and waits until admin, edit and view are aggregated. */
export async function startRbacFixture(fx: EtcdFixture, prefix = uniquePrefix('rbac')): Promise<RbacFixture> {
  const log = createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1');
  const storage = new Etcd3Store(fx.client, { prefix, codec: jsonCodec });
  const security: SecurityHandles = {};
  const deps = { storage, serviceClusterIPRange: '10.0.0.0/24', security };
  const regs = new Map<string, ResourceRegistration>();
  for (const m of [rolesModule, clusterRolesModule, roleBindingsModule, clusterRoleBindingsModule]) for (const r of m(deps)) regs.set(r.resource, r);
  const storageOf = (group: string, resource: string): RestStorage | undefined => (group === 'rbac.authorization.k8s.io' ? regs.get(resource)?.main : undefined);
  const authorization = await buildAuthorization({ ...defaultAuthorizationOptions, modes: ['RBAC'] }, { storageOf, log });
  security.authorization = authorization;
  const aggregation = new ClusterRoleAggregationController({ storage: storageOf('rbac.authorization.k8s.io', 'clusterroles') as RestStorage, log, retryMs: 50 });
  aggregation.start();
  const until = async (pred: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> => {
    const deadline = Date.now() + ms;
    while (!(await pred())) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await authorization.ready;
  const admin = regs.get('clusterroles')?.main as RestStorage;
  await until(async () => {
    const role = (await admin.get?.(internalContext({ verb: 'get', group: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: 'admin' }), 'admin', { resourceVersion: '' })) as KubeObject & { rules?: unknown[] };
    // admin gathers edit, which gathers view: over twenty rules once both levels are done.
    return (role.rules?.length ?? 0) > 20;
  });
  return {
    regs,
    security,
    authorization,
    storageOf,
    until,
    stop: () => {
      aggregation.stop();
      authorization.stop();
    },
  };
}
