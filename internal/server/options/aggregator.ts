/**
 * The aggregator's flags (kube-apiserver's aggregator options): the front-proxy client
 * certificate the API server presents to extension API servers (--proxy-client-cert-file,
 * --proxy-client-key-file), whether to route to an endpoint rather than the Service's cluster IP
 * (--enable-aggregator-routing), and whether a redirect from an extension server is refused
 * (--aggregator-reject-forwarding-redirect).
 */
import { boolFlag, FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated aggregator options. */
export interface AggregatorOptions {
  /** --proxy-client-cert-file (absent: requests to extension servers carry no client certificate). */
  readonly proxyClientCertFile?: string;
  /** --proxy-client-key-file. */
  readonly proxyClientKeyFile?: string;
  /** --enable-aggregator-routing: dial an endpoint's IP:port instead of the cluster IP. */
  readonly enableAggregatorRouting: boolean;
  /** --aggregator-reject-forwarding-redirect: a 3xx from an extension server becomes a 502. */
  readonly rejectForwardingRedirect: boolean;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly aggregator?: AggregatorOptions;
  }
}

/** The defaults of the aggregator flags. */
export const defaultAggregatorOptions: AggregatorOptions = { enableAggregatorRouting: false, rejectForwardingRedirect: true };

/** The aggregator flag group. */
export const aggregatorFlags: FlagGroup<'aggregator'> = {
  register(y) {
    y.option('proxy-client-cert-file', {
      type: 'string',
      describe:
        "Client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request. This includes proxying requests to a user api-server and calling out to webhook admission plugins. It is expected that this cert includes a signature from the CA in the --requestheader-client-ca-file flag. That CA is published in the 'extension-apiserver-authentication' configmap in the kube-system namespace. Components receiving calls from kube-aggregator should use that CA to perform their half of the mutual TLS verification.",
    });
    y.option('proxy-client-key-file', {
      type: 'string',
      describe:
        'Private key for the client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request. This includes proxying requests to a user api-server and calling out to webhook admission plugins.',
    });
    y.option('enable-aggregator-routing', { type: 'string', defaultDescription: 'false', describe: 'Turns on aggregator routing requests to endpoints IP rather than cluster IP.' });
    y.option('aggregator-reject-forwarding-redirect', { type: 'string', defaultDescription: 'true', describe: 'Aggregator reject forwarding redirect response back to client.' });
  },
  validate(p) {
    const cert = p['proxy-client-cert-file'] === undefined || p['proxy-client-cert-file'] === '' ? undefined : String(p['proxy-client-cert-file']);
    const key = p['proxy-client-key-file'] === undefined || p['proxy-client-key-file'] === '' ? undefined : String(p['proxy-client-key-file']);
    // A certificate without its key (or the reverse) cannot be presented: refused rather than ignored.
    if ((cert === undefined) !== (key === undefined)) throw new FlagError('--proxy-client-cert-file and --proxy-client-key-file must be specified together');
    return {
      aggregator: {
        ...(cert !== undefined && key !== undefined ? { proxyClientCertFile: cert, proxyClientKeyFile: key } : {}),
        enableAggregatorRouting: boolFlag('enable-aggregator-routing', p['enable-aggregator-routing'], false),
        rejectForwardingRedirect: boolFlag('aggregator-reject-forwarding-redirect', p['aggregator-reject-forwarding-redirect'], true),
      },
    };
  },
};
