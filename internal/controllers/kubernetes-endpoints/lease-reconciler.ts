/**
 * kube's lease endpoint reconciler: each server renews its address's TTL key in etcd, then sets
 * the Endpoints and EndpointSlice to exactly the addresses with live keys. A server that stops
 * renewing (killed) drops out when its key lapses; one that stops gracefully removes its key and
 * reconciles once more, so it drops out at once.
 */
import type { EndpointsAdapter } from './endpoints-adapter.js';
import type { EndpointPort, EndpointReconciler } from './interface.js';
import type { MasterLeases } from './master-leases.js';

/** The lease reconciler; calls are serialised. */
export class LeaseEndpointReconciler implements EndpointReconciler {
  private stopped = false;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly adapter: EndpointsAdapter,
    private readonly leases: MasterLeases,
  ) {}

  private serial(fn: () => Promise<void>): Promise<void> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  reconcile(ip: string, ports: readonly EndpointPort[], reconcilePorts: boolean): Promise<void> {
    return this.serial(async () => {
      if (this.stopped) return;
      // Our own key first, whatever happens next: then at least the other servers add us.
      await this.leases.update(ip);
      await this.doReconcile(ports, reconcilePorts);
    });
  }

  remove(ip: string, ports: readonly EndpointPort[]): Promise<void> {
    return this.serial(async () => {
      await this.leases.remove(ip);
      await this.doReconcile(ports, true);
    });
  }

  stopReconciling(): void {
    this.stopped = true;
  }

  private async doReconcile(ports: readonly EndpointPort[], reconcilePorts: boolean): Promise<void> {
    const ips = await this.leases.list();
    // Our own key was just written (or we are leaving): no key at all means storage is not what
    // it seems, and erasing every endpoint would cut the cluster off.
    if (ips.length === 0) throw new Error('no API server IP addresses were listed in storage, refusing to erase all endpoints for the kubernetes Service');
    await this.adapter.sync(ips, ports, reconcilePorts);
  }
}
