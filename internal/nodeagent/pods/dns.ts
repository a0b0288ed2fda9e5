/**
 * A pod sandbox's DNS configuration as kubelet's dns.Configurer makes it: ClusterFirst (and
 * ClusterFirstWithHostNet on the host network) uses --cluster-dns with the search list
 * "<ns>.svc.<domain> svc.<domain> <domain>" followed by the host's searches and "ndots:5"; Default
 * copies --resolv-conf; None starts empty; spec.dnsConfig is merged over all three. ClusterFirst
 * without --cluster-dns falls back to Default, with kubelet's MissingClusterDNS event.
 */
import { readFile } from 'node:fs/promises';
import type { DNSConfig } from '../../../proto/cri/v1/types.js';
import type { Pod } from './types.js';

/** The host's resolv.conf, parsed. */
export interface HostDNS {
  readonly servers: string[];
  readonly searches: string[];
  readonly options: string[];
}

/** kubelet's limits on the search list (MaxDNSSearchPaths, MaxDNSSearchListChars). */
const maxSearchPaths = 32;
const maxSearchChars = 2048;

/** Parses resolv.conf text. */
export function parseResolvConf(text: string): HostDNS {
  const out: HostDNS = { servers: [], searches: [], options: [] };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/[#;].*$/, '').trim();
    const [key, ...fields] = line.split(/\s+/);
    if (key === 'nameserver' && fields[0]) out.servers.push(fields[0]);
    else if (key === 'search') out.searches.splice(0, out.searches.length, ...fields.map((f) => f.replace(/\.$/, '')).filter((f) => f !== ''));
    else if (key === 'domain' && fields[0] && out.searches.length === 0) out.searches.push(fields[0]);
    else if (key === 'options') out.options.push(...fields);
  }
  return out;
}

/** Reads --resolv-conf ("" means none). */
export async function readHostDNS(path: string): Promise<HostDNS> {
  if (!path) return { servers: [], searches: [], options: [] };
  return parseResolvConf(await readFile(path, 'utf8').catch(() => ''));
}

function dedupe(list: readonly string[]): string[] {
  return [...new Set(list)];
}

function trimSearches(list: readonly string[]): string[] {
  const out: string[] = [];
  let chars = 0;
  for (const s of list) {
    if (out.length >= maxSearchPaths || chars + s.length + (out.length ? 1 : 0) > maxSearchChars) break;
    chars += s.length + (out.length ? 1 : 0);
    out.push(s);
  }
  return out;
}

/** The effective policy and whether ClusterFirst fell back (for the MissingClusterDNS event). */
export function effectivePolicy(pod: Pod, clusterDNS: readonly string[]): { policy: 'ClusterFirst' | 'Default' | 'None' | 'HostNetwork'; missingClusterDNS: boolean } {
  const p = pod.spec.dnsPolicy ?? 'ClusterFirst';
  if (p === 'None') return { policy: 'None', missingClusterDNS: false };
  if (p === 'Default') return { policy: 'Default', missingClusterDNS: false };
  const clusterFirst = p === 'ClusterFirstWithHostNet' || !pod.spec.hostNetwork;
  if (!clusterFirst) return { policy: 'Default', missingClusterDNS: false };
  if (clusterDNS.length === 0) return { policy: 'Default', missingClusterDNS: true };
  return { policy: 'ClusterFirst', missingClusterDNS: false };
}

/** The DNSConfig of pod's sandbox. */
export function podDNSConfig(pod: Pod, clusterDNS: readonly string[], clusterDomain: string, host: HostDNS): DNSConfig {
  const { policy } = effectivePolicy(pod, clusterDNS);
  let servers: string[] = [];
  let searches: string[] = [];
  let options: string[] = [];
  if (policy === 'ClusterFirst') {
    servers = [...clusterDNS];
    const ns = pod.metadata.namespace ?? '';
    searches = clusterDomain ? [`${ns}.svc.${clusterDomain}`, `svc.${clusterDomain}`, clusterDomain, ...host.searches] : [...host.searches];
    options = ['ndots:5'];
  } else if (policy === 'Default') {
    servers = [...host.servers];
    searches = [...host.searches];
    options = [...host.options];
  }
  const extra = pod.spec.dnsConfig;
  if (extra) {
    servers = dedupe([...servers, ...(extra.nameservers ?? [])]);
    searches = dedupe([...searches, ...(extra.searches ?? [])]);
    // Options merge by name, the pod's own winning.
    const byName = new Map<string, string>();
    for (const o of options) byName.set(o.split(':')[0]!, o);
    for (const o of extra.options ?? []) byName.set(o.name, o.value !== undefined ? `${o.name}:${o.value}` : o.name);
    options = [...byName.values()];
  }
  return { servers, searches: trimSearches(dedupe(searches)), options };
}
