/**
 * --endpoint-reconciler-type and --apiserver-count (kube's "misc" flags): how the kubernetes
 * Service's Endpoints and EndpointSlice list the API servers. lease (default): every live server,
 * each recorded in etcd with a TTL; master-count (deprecated): --apiserver-count addresses; none:
 * the endpoints are left alone. A type kube does not know is refused as kube refuses it.
 */
import { endpointReconcilerTypes, type EndpointReconcilerType } from '../../controllers/kubernetes-endpoints/interface.js';
import { FlagError, intFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated endpoint reconciler options. */
export interface EndpointReconcilerOptions {
  readonly type: EndpointReconcilerType;
  /** --apiserver-count: the number of servers master-count keeps. */
  readonly apiserverCount: number;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly endpointReconciler?: EndpointReconcilerOptions;
  }
}

/** kube's defaults: the lease reconciler, one server. */
export const defaultEndpointReconcilerOptions: EndpointReconcilerOptions = { type: 'lease', apiserverCount: 1 };

/** The endpoint reconciler flag group. */
export const endpointReconcilerFlags: FlagGroup<'endpointReconciler'> = {
  register(y) {
    y.option('endpoint-reconciler-type', {
      type: 'string',
      default: 'lease',
      describe: `Use an endpoint reconciler (${endpointReconcilerTypes.join(', ')}) master-count is deprecated, and will be removed in a future version.`,
    });
    // Deprecated flags are left out of --help, as pflag's MarkDeprecated does.
    y.option('apiserver-count', {
      type: 'string',
      default: '1',
      hidden: true,
      describe: 'The number of apiservers running in the cluster, must be a positive number. (In use when --endpoint-reconciler-type=master-count is enabled.)',
    });
  },
  validate(p) {
    const type = String(p['endpoint-reconciler-type'] ?? 'lease');
    // kube's createEndpointReconciler treats "" as lease and stops on anything else it does not know.
    const resolved = type === '' ? 'lease' : type;
    if (!(endpointReconcilerTypes as readonly string[]).includes(resolved)) throw new FlagError(`Reconciler not implemented: ${type}`);
    const apiserverCount = intFlag('apiserver-count', p['apiserver-count'] ?? '1');
    if (apiserverCount <= 0) throw new FlagError(`--apiserver-count should be a positive number, but value '${apiserverCount}' provided`);
    return { endpointReconciler: { type: resolved as EndpointReconcilerType, apiserverCount } };
  },
};
