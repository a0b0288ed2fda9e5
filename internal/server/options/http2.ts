/**
 * The HTTP/2 and listener flags: --http2-max-streams-per-connection, --permit-port-sharing and
 * --permit-address-sharing (kube's SecureServingOptions), --goaway-chance (generic
 * ServerRunOptions) and --max-connection-bytes-per-sec (kube-apiserver's ServerRunOptions).
 * internal/server/serving/ serves what is validated here.
 */
import { boolFlag, FlagError, intFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated HTTP/2 and listener options. */
export interface Http2Options {
  /** --http2-max-streams-per-connection (0: Go's default, 250). */
  readonly maxStreamsPerConnection: number;
  /** --goaway-chance: the fraction of HTTP/2 requests whose connection gets a GOAWAY (0..0.02). */
  readonly goawayChance: number;
  /** --max-connection-bytes-per-sec (0: no throttle). */
  readonly maxConnectionBytesPerSec: number;
  /** --permit-address-sharing (SO_REUSEADDR). */
  readonly permitAddressSharing: boolean;
  /** --permit-port-sharing (SO_REUSEPORT). */
  readonly permitPortSharing: boolean;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly http2?: Http2Options;
  }
}

/** kube-apiserver's defaults (it raises the streams per connection from Go's 250 to 1000). */
export const defaultHttp2Options: Http2Options = {
  maxStreamsPerConnection: 1000,
  goawayChance: 0,
  maxConnectionBytesPerSec: 0,
  permitAddressSharing: false,
  permitPortSharing: false,
};

/** Go's http2.Server default for MaxConcurrentStreams, which kube makes explicit for 0. */
export const goDefaultMaxStreams = 250;

/** Whether this Node's net.Server.listen takes reusePort (22.12+, 23.1+). */
export function listenSupportsReusePort(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12);
}

/** A Go float64 flag (strconv.ParseFloat's syntax, near enough: decimal and exponent forms). */
function floatFlag(name: string, value: unknown): number {
  const s = String(value);
  if (!/^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(s)) {
    throw new FlagError(`invalid argument ${JSON.stringify(s)} for "--${name}" flag: strconv.ParseFloat: parsing ${JSON.stringify(s)}: invalid syntax`);
  }
  return Number(s);
}

/** The HTTP/2 flag group. */
export const http2Flags: FlagGroup<'http2'> = {
  register(y) {
    y.option('http2-max-streams-per-connection', {
      type: 'string',
      default: String(defaultHttp2Options.maxStreamsPerConnection),
      describe: "The limit that the server gives to clients for the maximum number of streams in an HTTP/2 connection. Zero means to use golang's default.",
    })
      .option('goaway-chance', {
        type: 'string',
        default: '0',
        describe:
          "To prevent HTTP/2 clients from getting stuck on a single apiserver, randomly close a connection (GOAWAY). The client's other in-flight requests won't be affected, and the client will reconnect, likely landing on a different apiserver after going through the load balancer again. This argument sets the fraction of requests that will be sent a GOAWAY. Clusters with single apiservers, or which don't use a load balancer, should NOT enable this. Min is 0 (off), Max is .02 (1/50 requests); .001 (1/1000) is a recommended starting point.",
      })
      .option('max-connection-bytes-per-sec', {
        type: 'string',
        default: '0',
        describe: 'If non-zero, throttle each user connection to this number of bytes/sec. Currently only applies to long-running requests.',
      })
      .option('permit-address-sharing', {
        type: 'string',
        defaultDescription: 'false',
        describe:
          'If true, SO_REUSEADDR will be used when binding the port. This allows binding to wildcard IPs like 0.0.0.0 and specific IPs in parallel, and it avoids waiting for the kernel to release sockets in TIME_WAIT state. [default=false]',
      })
      .option('permit-port-sharing', {
        type: 'string',
        defaultDescription: 'false',
        describe: 'If true, SO_REUSEPORT will be used when binding the port, which allows more than one instance to bind on the same address and port. [default=false]',
      });
  },
  validate(p) {
    const maxStreamsPerConnection = intFlag('http2-max-streams-per-connection', p['http2-max-streams-per-connection'] ?? '1000');
    const goawayChance = floatFlag('goaway-chance', p['goaway-chance'] ?? '0');
    if (goawayChance < 0 || goawayChance > 0.02) throw new FlagError('--goaway-chance can not be less than 0 or greater than 0.02');
    const maxConnectionBytesPerSec = intFlag('max-connection-bytes-per-sec', p['max-connection-bytes-per-sec'] ?? '0');
    const permitAddressSharing = boolFlag('permit-address-sharing', p['permit-address-sharing']);
    const permitPortSharing = boolFlag('permit-port-sharing', p['permit-port-sharing']);
    if (permitPortSharing && !listenSupportsReusePort()) {
      throw new FlagError(
        `--permit-port-sharing: SO_REUSEPORT needs Node.js 22.12 or later (net.Server.listen's reusePort); this server runs on Node.js ${process.versions.node}`,
      );
    }
    return { http2: { maxStreamsPerConnection, goawayChance, maxConnectionBytesPerSec, permitAddressSharing, permitPortSharing } };
  },
};
