/**
 * The etcd client flags of kube's EtcdOptions beyond the server list and prefix (which stay in
 * flags.ts's core options): --etcd-cafile, --etcd-certfile, --etcd-keyfile (TLS to etcd and the
 * client certificate), --storage-backend (only etcd3) and --etcd-servers-overrides (a resource on
 * etcd servers of its own). Validated as kube validates them; the files are read when the server
 * starts (internal/storage/etcd3/client.ts), so a missing one stops the start there.
 */
import { FlagError, stringSliceFlag } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** One --etcd-servers-overrides entry: the resource and the servers it is stored on. */
export interface EtcdServersOverride {
  /** The API group, "" for the core group. */
  readonly group: string;
  readonly resource: string;
  readonly servers: readonly string[];
}

/** Validated etcd client options. */
export interface EtcdOptions {
  /** --etcd-cafile: the CA bundle etcd's serving certificates are checked against ("" for the system roots). */
  readonly caFile: string;
  /** --etcd-certfile and --etcd-keyfile: the client certificate offered to etcd ("" for none). */
  readonly certFile: string;
  readonly keyFile: string;
  readonly serversOverrides: readonly EtcdServersOverride[];
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly etcd?: EtcdOptions;
  }
}

/** kube's defaults: no TLS files, no overrides. */
export const defaultEtcdOptions: EtcdOptions = { caFile: '', certFile: '', keyFile: '', serversOverrides: [] };

const storageTypes = ['etcd3'];
const overrideFormat = '--etcd-servers-overrides invalid, must be of format: group/resource#servers, where servers are URLs, semicolon separated';

/**
 * Checks one list of etcd servers (--etcd-servers or one override's): every entry a
 * scheme://host[:port] URL, all of one scheme (the etcd3 client dials every member of a list with
 * the same credentials, so a list mixing plain and TLS members is refused rather than half-working).
 */
export function validateEtcdServerList(flag: string, servers: readonly string[]): void {
  for (const s of servers) {
    if (!/^https?:\/\/[^/]+/.test(s)) throw new FlagError(`${flag}: invalid URL ${JSON.stringify(s)}: must be scheme://host:port`);
  }
  const secure = servers.filter((s) => s.startsWith('https://')).length;
  if (secure > 0 && secure < servers.length) throw new FlagError(`${flag}: the servers mix http:// and https:// URLs; use one scheme for all of them`);
}

/** The etcd client flag group. */
export const etcdFlags: FlagGroup<'etcd'> = {
  repeatable: ['etcd-servers-overrides'],
  register(y) {
    y.option('etcd-servers-overrides', {
      type: 'string',
      describe:
        'Per-resource etcd servers overrides, comma separated. The individual override format: group/resource#servers, where servers are URLs, semicolon separated. Note that this applies only to resources compiled into this server binary. ',
    });
    y.option('storage-backend', { type: 'string', describe: "The storage backend for persistence. Options: 'etcd3' (default)." });
    y.option('etcd-keyfile', { type: 'string', describe: 'SSL key file used to secure etcd communication.' });
    y.option('etcd-certfile', { type: 'string', describe: 'SSL certification file used to secure etcd communication.' });
    y.option('etcd-cafile', { type: 'string', describe: 'SSL Certificate Authority file used to secure etcd communication.' });
  },
  validate(p) {
    const backend = String(p['storage-backend'] ?? '');
    if (backend !== '' && !storageTypes.includes(backend)) {
      throw new FlagError(`--storage-backend invalid, allowed values: ${storageTypes.join(', ')}. If not specified, it will default to 'etcd3'`);
    }
    const serversOverrides: EtcdServersOverride[] = [];
    for (const override of stringSliceFlag('etcd-servers-overrides', p['etcd-servers-overrides'])) {
      const tokens = override.split('#');
      if (tokens.length !== 2) throw new FlagError(overrideFormat);
      const apiresource = (tokens[0] as string).split('/');
      if (apiresource.length !== 2) throw new FlagError(overrideFormat);
      const servers = (tokens[1] as string).split(';').filter((s) => s.length > 0);
      if (servers.length === 0) throw new FlagError(`--etcd-servers-overrides ${JSON.stringify(override)}: no servers given`);
      validateEtcdServerList('--etcd-servers-overrides', servers);
      const [group, resource] = apiresource as [string, string];
      if (serversOverrides.some((o) => o.group === group && o.resource === resource)) {
        throw new FlagError(`--etcd-servers-overrides: ${group}/${resource} is overridden more than once`);
      }
      serversOverrides.push({ group, resource, servers });
    }
    const caFile = String(p['etcd-cafile'] ?? '');
    const certFile = String(p['etcd-certfile'] ?? '');
    const keyFile = String(p['etcd-keyfile'] ?? '');
    // etcd's client loads the pair together: one without the other cannot make a client certificate.
    if ((certFile === '') !== (keyFile === '')) throw new FlagError('--etcd-certfile and --etcd-keyfile must be specified together');
    return { etcd: { caFile, certFile, keyFile, serversOverrides } };
  },
};
