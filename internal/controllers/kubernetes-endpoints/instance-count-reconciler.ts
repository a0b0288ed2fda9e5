/**
 * kube's deprecated master-count reconciler (--endpoint-reconciler-type=master-count with
 * --apiserver-count): each server adds its own address, and when there are more addresses than
 * the count it removes those right after its own in sorted order (wrapping around), which makes
 * the list eventually right when every server agrees on the count.
 */
import type { EndpointsAdapter } from './endpoints-adapter.js';
import type { EndpointPort, EndpointReconciler } from './interface.js';

/** The master-count reconciler; calls are serialised. */
export class InstanceCountEndpointReconciler implements EndpointReconciler {
  private stopped = false;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly adapter: EndpointsAdapter,
    private readonly count: number,
  ) {}

  private serial(fn: () => Promise<void>): Promise<void> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  reconcile(ip: string, ports: readonly EndpointPort[], reconcilePorts: boolean): Promise<void> {
    return this.serial(async () => {
      if (this.stopped) return;
      const ips = await this.adapter.get();
      ips.add(ip);
      if (ips.size > this.count) {
        const sorted = [...ips].sort();
        const i = sorted.indexOf(ip);
        for (let k = 1; ips.size > this.count; k++) ips.delete(sorted[(i + k) % sorted.length] as string);
      }
      await this.adapter.sync(ips, ports, reconcilePorts);
    });
  }

  remove(ip: string, ports: readonly EndpointPort[]): Promise<void> {
    return this.serial(async () => {
      const ips = await this.adapter.get();
      if (!ips.has(ip)) return;
      ips.delete(ip);
      await this.adapter.sync(ips, ports, false);
    });
  }

  stopReconciling(): void {
    this.stopped = true;
  }
}
