/**
 * The service accounts controller (kube-controller-manager's "serviceaccount" controller, which
 * Capstan runs inside the API server since it has no controller manager): every active namespace
 * gets a ServiceAccount named "default", created when the namespace appears and again when the
 * account is deleted. The ServiceAccount admission plugin gives pods that name no account this one.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { Logger } from '../../observability/logging.js';
import type { InServerController } from '../../server/in-server-controllers.js';
import type { Informer } from '../informer.js';
import { ResourceClient } from '../resource-client.js';

/** The accounts every namespace gets. */
export const defaultServiceAccounts: readonly string[] = ['default'];

const retryMs = 1000;

/** Keeps the default accounts of every active namespace. */
export class ServiceAccountsController {
  private readonly queued = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly namespaces: Informer,
    private readonly accounts: Informer,
    private readonly create: (obj: KubeObject) => Promise<unknown>,
    private readonly log: Logger,
  ) {}

  /** Starts following namespaces and accounts. */
  start(): void {
    this.namespaces.addHandlers({ added: (ns) => this.enqueue(ns.metadata.name ?? ''), updated: (ns) => this.enqueue(ns.metadata.name ?? '') });
    this.accounts.addHandlers({ deleted: (sa) => this.enqueue(sa.metadata.namespace ?? '') });
  }

  /** Stops; pending retries are dropped. */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
  }

  private enqueue(namespace: string, delayMs = 0): void {
    if (this.stopped || !namespace || this.queued.has(namespace)) return;
    this.queued.add(namespace);
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.queued.delete(namespace);
      void this.sync(namespace);
    }, delayMs);
    this.timers.add(t);
  }

  private async sync(namespace: string): Promise<void> {
    const ns = this.namespaces.get(namespace);
    if (!ns || ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase === 'Terminating') return;
    for (const name of defaultServiceAccounts) {
      if (this.accounts.get(`${namespace}/${name}`)) continue;
      try {
        await this.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } });
      } catch (err) {
        if (hasReason(err, 'AlreadyExists')) continue;
        // A namespace being deleted refuses new content: nothing to do.
        if (hasReason(err, 'Forbidden') || hasReason(err, 'NotFound')) return;
        this.log.info(`serviceaccount controller: creating ${namespace}/${name} failed, retrying: ${(err as Error).message}`);
        this.enqueue(namespace, retryMs);
        return;
      }
    }
  }
}

/** The controller as an in-server controller. */
export const serviceAccountsController: InServerController = {
  name: 'serviceaccount',
  start(deps) {
    const storage = deps.storageOf('', 'serviceaccounts');
    if (!storage) throw new Error('no storage for serviceaccounts');
    const client = new ResourceClient(storage, '', 'serviceaccounts');
    const c = new ServiceAccountsController(deps.informers.get('', 'namespaces'), deps.informers.get('', 'serviceaccounts'), (o) => client.create(o), deps.log);
    c.start();
    return () => c.stop();
  },
};
