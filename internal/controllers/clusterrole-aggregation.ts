/**
 * The ClusterRole aggregation controller (kube's clusterroleaggregation controller, which
 * kube-controller-manager runs; here it runs inside the API server): a ClusterRole with an
 * aggregationRule gets as rules the union of the rules of every other ClusterRole its selectors
 * match, visited selector by selector and by name, each distinct rule once. So admin, edit and
 * view follow the system:aggregate-to-* roles and any ClusterRole labelled like them. Any change
 * to any ClusterRole re-examines every aggregated one; a failed write is retried.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { RoleObject } from '../authz/rbac/types.js';
import type { PolicyRule } from '../authz/rules.js';
import type { Logger } from '../observability/logging.js';
import type { RestStorage } from '../registry/interface.js';
import { semanticEqual } from '../registry/core/shared/semantic-equal.js';
import { labelSelectorAsSelector, type LabelSelectorObject } from '../selectors/label-selector-object.js';
import { Informer } from './informer.js';
import { ResourceClient } from './resource-client.js';

const group = 'rbac.authorization.k8s.io';

/** What the controller needs. */
export interface ClusterRoleAggregationOptions {
  /** The clusterroles storage. */
  readonly storage: RestStorage;
  readonly log: Logger;
  /** Pause before retrying a failed sync (default 1 s). */
  readonly retryMs?: number;
}

/**
 * The rules an aggregated role should have: the union, in selector then name order, of the rules
 * of the roles in roles (other than aggregated itself) that one of its selectors matches. Throws
 * SelectorParseError on an invalid selector.
 */
export function aggregatedRules(aggregated: RoleObject, roles: Iterable<KubeObject>): PolicyRule[] {
  const all = [...roles].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  const rules: PolicyRule[] = [];
  for (const raw of aggregated.aggregationRule?.clusterRoleSelectors ?? []) {
    const selector = labelSelectorAsSelector(raw as LabelSelectorObject);
    for (const role of all) {
      if (role.metadata.name === aggregated.metadata.name || !selector.matches(role.metadata.labels)) continue;
      for (const rule of (role as RoleObject).rules ?? []) {
        if (!rules.some((r) => semanticEqual(r, rule))) rules.push(rule);
      }
    }
  }
  return rules;
}

/** The running controller; start() it, stop() it. */
export class ClusterRoleAggregationController {
  private readonly informer: Informer;
  private readonly client: ResourceClient;
  private readonly queue = new Set<string>();
  private running = false;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ClusterRoleAggregationOptions) {
    this.informer = new Informer({ storage: options.storage, group, resource: 'clusterroles', log: options.log });
    this.client = new ResourceClient(options.storage, group, 'clusterroles');
    const changed = (): void => this.enqueueAggregated();
    this.informer.addHandlers({ added: changed, updated: changed, deleted: changed });
  }

  /** Starts following ClusterRoles. */
  start(): void {
    this.informer.start();
  }

  /** Stops the informer and any pending retry. */
  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.informer.stop();
  }

  /** Whether nothing is queued or being written (for tests). */
  idle(): boolean {
    return this.queue.size === 0 && !this.running;
  }

  private enqueueAggregated(): void {
    for (const role of this.informer.list()) {
      if ((role as RoleObject).aggregationRule) this.queue.add(role.metadata.name ?? '');
    }
    if (this.queue.size > 0 && !this.running) setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    const failed: string[] = [];
    try {
      while (this.queue.size > 0 && !this.stopped) {
        const name = this.queue.values().next().value as string;
        this.queue.delete(name);
        try {
          await this.sync(name);
        } catch (err) {
          this.options.log.warn(`clusterrole aggregation of ${name} failed, retrying: ${(err as Error).message}`);
          failed.push(name);
        }
      }
    } finally {
      this.running = false;
    }
    if (failed.length > 0 && !this.stopped) {
      this.retryTimer = setTimeout(() => {
        for (const n of failed) this.queue.add(n);
        void this.drain();
      }, this.options.retryMs ?? 1000);
      this.retryTimer.unref();
    }
  }

  private async sync(name: string): Promise<void> {
    const role = this.informer.get(name) as RoleObject | undefined;
    if (!role?.aggregationRule) return;
    const rules = aggregatedRules(role, this.informer.list());
    if (semanticEqual(rules, role.rules ?? [])) return;
    await this.client.update(name, '', (current) => {
      const next = current as RoleObject;
      // Only while it is still aggregated: a role that lost its rule keeps what it has.
      if (next.aggregationRule) next.rules = structuredClone(rules);
      return next;
    });
  }
}
