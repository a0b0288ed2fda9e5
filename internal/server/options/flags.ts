/**
 * The API server's command line: kube-apiserver's flag names and defaults, parsed with yargs and
 * validated into ServerOptions. Unknown flags and invalid values are refused with a message;
 * nothing parsed is silently ignored.
 */
import { buildVersionInfo, rawVersionText } from '../../version/info.js';
import { normalizeVersionArgs, parseVersionFlags, versionFlagHelp, type VersionRequest } from './version-flag.js';
import { isIP } from 'node:net';
import yargs from 'yargs';
import { parseServiceClusterIPRanges } from '../../registry/core/services/service-cidr.js';
import { storageMediaTypes, type StorageMediaType } from '../../storage/codec.js';
import { formatGoDuration } from './duration.js';
import { boolFlag, durationFlag, FlagError, intFlag, repeatedValues, watchCacheSizesFlag } from './flag-values.js';
import { validateEtcdServerList } from './etcd.js';
import { flagGroups, type FlagGroupOptions } from './groups.js';

export { FlagError } from './flag-values.js';

/**
 * Validated options of one API server. The options of each flag group (groups.ts) are optional
 * here so that tests can build options by hand; an absent group means its flags' defaults.
 */
export interface ServerOptions extends FlagGroupOptions {
  readonly etcdServers: readonly string[];
  readonly etcdPrefix: string;
  /** --storage-media-type: the encoding objects are written to etcd in. */
  readonly storageMediaType: StorageMediaType;
  /** --watch-cache: serve lists and watches from a cache per resource. */
  readonly watchCache: boolean;
  /** --watch-cache-sizes: sizes by "resource" or "resource.group" (only 0, which turns the cache off, matters). */
  readonly watchCacheSizes: ReadonlyMap<string, number>;
  /** --default-watch-cache-size: 0 turns the cache off for resources without a size of their own. */
  readonly defaultWatchCacheSize: number;
  /**
   * Not a flag: the watch cache's window and buffer sizes, for tests that need a window small
   * enough to fall out of. Production uses kube's values (see internal/storage/cacher).
   */
  readonly watchCacheTuning?: { readonly minWindow?: number; readonly maxWindow?: number; readonly maxBufferedEvents?: number; readonly bookmarkIntervalMs?: number };
  /** --secure-port (the TLS flags of secure serving are the secureServing group's). */
  readonly securePort: number;
  readonly bindAddress: string;
  readonly etcdCompactionIntervalMs: number;
  readonly requestTimeoutMs: number;
  readonly minRequestTimeoutSeconds: number;
  /** -v (the logging group's verbosity, here for callers that read it directly). */
  readonly verbosity: number;
  /** --service-cluster-ip-range: one CIDR, or two of different families (comma separated). */
  readonly serviceClusterIPRange: string;
  /** --version=vX.Y.Z...: the git version /version reports instead of the built-in one. */
  readonly gitVersion?: string;
  /** The address the API server advertises to the cluster (the default/kubernetes Endpoints). */
  readonly advertiseAddress?: string;
  /** --external-hostname: the host (and optional port) of generated URLs (OpenID discovery's jwks_uri). */
  readonly externalHostname?: string;
  /**
   * Not a flag: the several-servers loops' timings and the host name the identity Lease is named
   * after, for tests that run several servers on one host and cannot wait kube's minutes.
   * Production uses kube's values (internal/controllers/apiserver-identity, kubernetes-endpoints).
   */
  readonly controlPlaneTuning?: ControlPlaneTuning;
}

/** See ServerOptions.controlPlaneTuning. */
export interface ControlPlaneTuning {
  readonly hostname?: string;
  readonly identityLeaseDurationSeconds?: number;
  readonly identityLeaseRenewIntervalMs?: number;
  readonly identityLeaseGCPeriodMs?: number;
  readonly endpointReconcileIntervalMs?: number;
  readonly endpointReconcilerTTLSeconds?: number;
  /** How often the aggregator re-checks every APIService's availability (kube: 30 s). */
  readonly apiServiceResyncMs?: number;
}

/** The outcome of parsing: options to run with, or text to print and an exit code. */
export type ParseResult =
  | {
      kind: 'run';
      options: ServerOptions;
      /** The part of options that the flag groups set (also inside options). */
      groups: FlagGroupOptions;
    }
  | { kind: 'exit'; code: number; stdout?: string; stderr?: string };

/** Parses argv (without node and script). versionText is what --version prints. */
export function parseFlags(argv: readonly string[], versionText: string): ParseResult {
  let helpText = '';
  const args = normalizeVersionArgs(argv);
  const parser = yargs(args)
    .scriptName('capstan-apiserver')
    .usage('capstan-apiserver [flags]\n\nA Kubernetes-compatible API server backed by etcd.')
    .parserConfiguration({ 'camel-case-expansion': false, 'boolean-negation': false, 'duplicate-arguments-array': false })
    .option('etcd-servers', { type: 'string', describe: 'List of etcd servers to connect with (scheme://ip:port), comma separated.' })
    .option('etcd-prefix', { type: 'string', default: '/registry', describe: 'The prefix to prepend to all resource paths in etcd.' })
    .option('storage-media-type', {
      type: 'string',
      default: 'application/vnd.kubernetes.protobuf',
      describe: `The media type objects are stored in etcd with (custom resources are always JSON). Every encoding stays readable, so it can be changed without a migration. Supported media types: [${storageMediaTypes.join(', ')}]`,
    })
    .option('watch-cache', { type: 'string', defaultDescription: 'true', describe: 'Enable watch caching in the apiserver' })
    .option('watch-cache-sizes', {
      type: 'string',
      describe:
        'Watch cache size settings for some resources (pods, nodes, etc.), comma separated. The individual setting format: resource[.group]#size, where resource is lowercase plural (no version), group is omitted for resources of apiVersion v1 (the legacy core API) and included for others, and size is a number. Only zero is meaningful: it turns the watch cache off for that resource; every other size leaves it on.',
    })
    .option('default-watch-cache-size', { type: 'string', default: '100', describe: 'Default watch cache size. If zero, watch cache will be disabled for resources that do not have a default watch size set.' })
    .option('etcd-compaction-interval', { type: 'string', default: '5m0s', describe: 'The interval of compaction requests. If 0, the compaction request from apiserver is disabled.' })
    .option('secure-port', { type: 'string', default: '6443', describe: 'The port on which to serve HTTPS with authentication and authorization. It cannot be switched off with 0.' })
    .option('bind-address', { type: 'string', default: '0.0.0.0', describe: 'The IP address on which to listen for the --secure-port port.' })
    .option('request-timeout', { type: 'string', default: '1m0s', describe: 'The duration a handler must keep a request open before timing it out (not for long-running requests such as watch).' })
    .option('min-request-timeout', { type: 'string', default: '1800', describe: 'The minimum number of seconds a watch handler keeps a request open before timing it out; actual timeouts are randomised between this and twice this.' })
    .option('service-cluster-ip-range', { type: 'string', default: '10.0.0.0/24', describe: 'A CIDR notation IP range from which to assign service cluster IPs. This must not overlap with any IP ranges assigned to nodes or pods. Max of two dual-stack CIDRs is allowed.' })
    .option('advertise-address', { type: 'string', describe: 'The IP address on which to advertise the apiserver to members of the cluster. If blank, --bind-address is used, or the first non-loopback address of the host when that is 0.0.0.0.' })
    .option('external-hostname', { type: 'string', describe: 'The hostname to use when generating externalized URLs for this master (e.g. Swagger API Docs or OpenID Discovery).' })
    .version(false)
    .option('version', { type: 'string', describe: versionFlagHelp })
    .help('help')
    .alias('help', 'h')
    .strict()
    .exitProcess(false)
    .fail((msg, err) => {
      throw new FlagError(msg ?? err?.message ?? 'invalid flags');
    });
  for (const g of flagGroups) g.register(parser);
  let parsed: Record<string, unknown>;
  let version: VersionRequest;
  try {
    parsed = parser.parseSync() as Record<string, unknown>;
    version = parseVersionFlags(args);
    collectRepeated(parsed, argv, (parser as unknown as { getOptions(): { array: string[] } }).getOptions().array);
    helpText = '';
  } catch (err) {
    return { kind: 'exit', code: 1, stderr: `Error: ${(err as Error).message}\n` };
  }
  for (const g of flagGroups) for (const name of g.repeatable ?? []) parsed[name] = repeatedValues(argv, name);
  if (parsed.help) return { kind: 'exit', code: 0, stdout: helpText };
  if (version.print === 'true') return { kind: 'exit', code: 0, stdout: `${version.gitVersion !== undefined ? `Kubernetes ${version.gitVersion}` : versionText}\n` };
  if (version.print === 'raw') return { kind: 'exit', code: 0, stdout: `${rawVersionText(buildVersionInfo(version.gitVersion))}\n` };
  try {
    const groups = validateGroups(parsed);
    const core = { ...validateCore(parsed), ...(version.gitVersion !== undefined ? { gitVersion: version.gitVersion } : {}) };
    return { kind: 'run', options: { ...core, ...groups, verbosity: groups.logging?.verbosity ?? 0 }, groups };
  } catch (err) {
    return { kind: 'exit', code: 1, stderr: `Error: ${(err as Error).message}\n` };
  }
}

/**
 * pflag's StringArray and StringSlice flags may be given more than once and keep every value;
 * yargs (with duplicate-arguments-array off, so a repeated scalar flag keeps its last value, as
 * pflag does) keeps only the last. Every option a group registers with `array: true` therefore gets
 * all its occurrences from argv, in order, as strings (splitting on commas is the group's choice).
 */
function collectRepeated(parsed: Record<string, unknown>, argv: readonly string[], arrays: readonly string[]): void {
  if (arrays.length === 0) return;
  const names = new Set(arrays);
  const values = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (!arg.startsWith('-')) continue;
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    if (!names.has(name)) continue;
    const value = eq < 0 ? argv[++i] : body.slice(eq + 1);
    if (value === undefined) continue;
    const list = values.get(name) ?? [];
    list.push(value);
    values.set(name, list);
  }
  for (const [name, list] of values) parsed[name] = list;
}

function isStorageMediaType(v: string): v is StorageMediaType {
  return (storageMediaTypes as readonly string[]).includes(v);
}

function validateGroups(p: Record<string, unknown>): FlagGroupOptions {
  const groups: FlagGroupOptions = {};
  for (const g of flagGroups) Object.assign(groups, g.validate(p));
  return groups;
}

function validateCore(p: Record<string, unknown>): Omit<ServerOptions, 'verbosity'> {
  const servers = String(p['etcd-servers'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (servers.length === 0) throw new FlagError('--etcd-servers must be specified');
  validateEtcdServerList('--etcd-servers', servers);
  const securePort = intFlag('secure-port', p['secure-port']);
  if (securePort === 0) throw new FlagError('--secure-port 0 is not allowed: the secure port cannot be turned off; it must be between 1 and 65535, inclusive');
  if (securePort < 1 || securePort > 65535) throw new FlagError(`--secure-port ${securePort} must be between 1 and 65535, inclusive`);
  const bindAddress = String(p['bind-address']);
  if (isIP(bindAddress) === 0) throw new FlagError(`--bind-address ${JSON.stringify(bindAddress)} is not a valid IP address`);
  const compaction = durationFlag('etcd-compaction-interval', p['etcd-compaction-interval']);
  if (compaction < 0) throw new FlagError(`--etcd-compaction-interval ${formatGoDuration(compaction)} must not be negative`);
  const requestTimeout = durationFlag('request-timeout', p['request-timeout']);
  if (requestTimeout <= 0) throw new FlagError('--request-timeout must be greater than 0');
  const minRequestTimeout = intFlag('min-request-timeout', p['min-request-timeout']);
  if (minRequestTimeout < 0) throw new FlagError('--min-request-timeout must not be negative');
  const prefix = String(p['etcd-prefix']);
  if (!prefix.startsWith('/')) throw new FlagError(`--etcd-prefix ${JSON.stringify(prefix)} must start with "/"`);
  const storageMediaType = String(p['storage-media-type']);
  if (!isStorageMediaType(storageMediaType)) {
    throw new FlagError(`--storage-media-type ${JSON.stringify(storageMediaType)} invalid, allowed values: ${[...storageMediaTypes].sort().join(', ')}`);
  }
  const watchCache = boolFlag('watch-cache', p['watch-cache'], true);
  const watchCacheSizes = watchCacheSizesFlag(p['watch-cache-sizes']);
  const defaultWatchCacheSize = intFlag('default-watch-cache-size', p['default-watch-cache-size']);
  if (defaultWatchCacheSize < 0) throw new FlagError(`--default-watch-cache-size ${defaultWatchCacheSize} must not be negative`);
  const serviceRange = String(p['service-cluster-ip-range']);
  try {
    parseServiceClusterIPRanges(serviceRange);
  } catch (err) {
    throw new FlagError((err as Error).message);
  }
  const advertise = p['advertise-address'] as string | undefined;
  if (advertise !== undefined && isIP(advertise) === 0) throw new FlagError(`--advertise-address ${JSON.stringify(advertise)} is not a valid IP address`);
  const externalHostname = p['external-hostname'] as string | undefined;
  return {
    etcdServers: servers,
    etcdPrefix: prefix,
    storageMediaType,
    watchCache,
    watchCacheSizes,
    defaultWatchCacheSize,
    securePort,
    bindAddress,
    etcdCompactionIntervalMs: compaction,
    requestTimeoutMs: requestTimeout,
    minRequestTimeoutSeconds: minRequestTimeout,
    serviceClusterIPRange: serviceRange,
    ...(advertise ? { advertiseAddress: advertise } : {}),
    ...(externalHostname ? { externalHostname } : {}),
  };
}
