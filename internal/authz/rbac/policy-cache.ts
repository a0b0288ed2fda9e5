/**
 * RBAC's running state: informers over Roles, ClusterRoles, RoleBindings and ClusterRoleBindings
 * (through their storage, so they read the watch cache) feeding the index, the authorizer over it,
 * and the bootstrap policy hook. Started once per server whatever the authorization modes (kube
 * reconciles its bootstrap roles and checks escalation in every mode); its authorizer is used
 * only when --authorization-mode names RBAC.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { Informer, type InformerHandlers } from '../../controllers/informer.js';
import { ResourceClient } from '../../controllers/resource-client.js';
import type { Logger } from '../../observability/logging.js';
import type { RestStorage } from '../../registry/interface.js';
import { ensureBootstrapPolicy, type BootstrapClients } from '../bootstrap-policy/ensure.js';
import type { PolicyRule } from '../rules.js';
import { RbacAuthorizer } from './authorizer.js';
import { compileRules } from './compiled-role.js';
import { RbacIndex } from './index.js';
import { rbacGroup, type RbacPolicyHandle, type RbacRuleResolver, type RoleRef } from './types.js';

/** What RBAC needs of the server. */
export interface RbacPolicyDeps {
  readonly storageOf: (group: string, resource: string) => RestStorage | undefined;
  readonly log: Logger;
}

const resources = ['clusterroles', 'roles', 'clusterrolebindings', 'rolebindings'] as const;

/** The running RBAC policy. */
export class RbacPolicy implements RbacPolicyHandle {
  readonly index = new RbacIndex();
  readonly authorizer = new RbacAuthorizer(this.index);
  /** Resolves once every informer has loaded its first list and the bootstrap policy is reconciled, or on stop(). */
  readonly ready: Promise<void>;
  private readonly informers: Informer[] = [];
  private readonly clients: BootstrapClients;
  private readonly abort = new AbortController();
  private isBootstrapped = false;

  private constructor(storages: Record<(typeof resources)[number], RestStorage>, log: Logger) {
    const roleHandlers: InformerHandlers = {
      added: (o) => this.index.setRole(o),
      updated: (o) => this.index.setRole(o),
      deleted: (o) => this.index.deleteRole(o),
    };
    const bindingHandlers: InformerHandlers = {
      added: (o) => this.index.setBinding(o),
      updated: (o) => this.index.setBinding(o),
      deleted: (o) => this.index.deleteBinding(o),
    };
    for (const resource of resources) {
      const informer = new Informer({ storage: storages[resource], group: rbacGroup, resource, log });
      informer.addHandlers(resource.endsWith('bindings') ? bindingHandlers : roleHandlers);
      this.informers.push(informer);
    }
    this.clients = {
      clusterRoles: new ResourceClient(storages.clusterroles, rbacGroup, 'clusterroles'),
      clusterRoleBindings: new ResourceClient(storages.clusterrolebindings, rbacGroup, 'clusterrolebindings'),
      roles: new ResourceClient(storages.roles, rbacGroup, 'roles'),
      roleBindings: new ResourceClient(storages.rolebindings, rbacGroup, 'rolebindings'),
    };
    for (const i of this.informers) i.start();
    const bootstrapped = ensureBootstrapPolicy(this.clients, log, this.abort.signal).then((done) => {
      this.isBootstrapped = done;
    });
    const stopped = new Promise<void>((resolve) => this.abort.signal.addEventListener('abort', () => resolve(), { once: true }));
    // Stopping settles it too, so nobody waits forever on a server that shut down while starting.
    this.ready = Promise.race([Promise.all([...this.informers.map((i) => i.synced), bootstrapped]).then(() => undefined), stopped]);
  }

  /** Starts RBAC over the server's storage; undefined when the RBAC resources are not served. */
  static start(deps: RbacPolicyDeps): RbacPolicy | undefined {
    const storages: Partial<Record<(typeof resources)[number], RestStorage>> = {};
    for (const r of resources) {
      const s = deps.storageOf(rbacGroup, r);
      if (!s) return undefined;
      storages[r] = s;
    }
    return new RbacPolicy(storages as Record<(typeof resources)[number], RestStorage>, deps.log);
  }

  get resolver(): RbacRuleResolver {
    return this.index;
  }

  async roleReferenceRules(ref: RoleRef, bindingNamespace: string): Promise<readonly PolicyRule[]> {
    let obj: KubeObject;
    if (ref.kind === 'ClusterRole') obj = await this.clients.clusterRoles.get(ref.name);
    else if (ref.kind === 'Role') obj = await this.clients.roles.get(ref.name, bindingNamespace);
    else throw new Error(`unsupported role reference kind: "${ref.kind}"`);
    return compileRules((obj as { rules?: unknown }).rules);
  }

  bootstrapped(): boolean {
    return this.isBootstrapped;
  }

  /** Stops the informers and the bootstrap retries. */
  stop(): void {
    this.abort.abort();
    for (const i of this.informers) i.stop();
  }
}
