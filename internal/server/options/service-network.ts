/**
 * --service-node-port-range (kube's ServerRunOptions): the ports NodePort and LoadBalancer
 * Services get node ports from, in kube's syntax ("30000-32767", "30000+2767" or one port) with
 * pflag's message for a value that does not parse. An empty value means kube's default range.
 */
import { defaultServiceNodePortRange, parsePortRange, portRangeString } from '../../registry/core/services/port-range.js';
import { FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated service network options. */
export interface ServiceNetworkOptions {
  /** The node port range, as kube prints it ("30000-32767"). */
  readonly nodePortRange: string;
  /**
   * Not a flag: the repair loops' period (kube's 3 minutes) and how old an IPAddress without a
   * Service must be before the repair loop frees it (kube's 60 s), for tests that cannot wait.
   */
  readonly repairIntervalMs?: number;
  readonly ipAddressLeakGraceMs?: number;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly serviceNetwork?: ServiceNetworkOptions;
  }
}

/** The defaults: kube's node port range. */
export const defaultServiceNetworkOptions: ServiceNetworkOptions = { nodePortRange: portRangeString(defaultServiceNodePortRange) };

/** The --service-node-port-range flag group. */
export const serviceNetworkFlags: FlagGroup<'serviceNetwork'> = {
  register(y) {
    y.option('service-node-port-range', {
      type: 'string',
      default: '30000-32767',
      describe:
        "A port range to reserve for services with NodePort visibility.  This must not overlap with the ephemeral port range on nodes.  Example: '30000-32767'. Inclusive at both ends of the range.",
    });
  },
  validate(p) {
    const value = String(p['service-node-port-range'] ?? '');
    let range;
    try {
      range = parsePortRange(value);
    } catch (err) {
      throw new FlagError(`invalid argument ${JSON.stringify(value)} for "--service-node-port-range" flag: ${(err as Error).message}`);
    }
    const nodePortRange = range.size === 0 ? defaultServiceNetworkOptions.nodePortRange : portRangeString(range);
    return { serviceNetwork: { nodePortRange } };
  },
};
