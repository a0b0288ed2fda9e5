/**
 * kube's aggregated discovery manager for extension servers: for each Available service-backed
 * APIService, the resources of its group version, taken from the server's aggregated discovery
 * (/apis as APIGroupDiscoveryList v2, then v2beta1) or, from a server without it, built from its
 * legacy /apis/<group>/<version>. Fetched when the APIService changes and every 30 s; a failed
 * fetch keeps the last resources, marked Stale. Implements the discovery handler's
 * ExternalDiscovery (legacy discovery lists every service-backed APIService's version at once).
 */
import type { ExternalDiscovery, ExternalGroup, ExternalVersion } from '../endpoints/discovery/external.js';
import type { Logger } from '../observability/logging.js';
import type { APIServiceIndex } from './api-services.js';
import { fetchFromBackend } from './fetch.js';
import type { APIServiceView } from './interface.js';
import type { ServiceResolver } from './service-resolver.js';
import type { BackendTransports } from './transport.js';

const aggregatedAccept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const refreshMs = 30_000;

interface LegacyResource {
  name: string;
  singularName?: string;
  namespaced?: boolean;
  group?: string;
  version?: string;
  kind?: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
}

/** kube's conversion of a legacy APIResourceList into APIVersionDiscovery resources. */
export function resourcesFromLegacy(list: { resources?: LegacyResource[] }): unknown[] {
  const out: Array<Record<string, unknown>> = [];
  const byName = new Map<string, Record<string, unknown>>();
  const kindOf = (r: LegacyResource): Record<string, string> => ({ group: r.group ?? '', version: r.version ?? '', kind: r.kind ?? '' });
  for (const r of list.resources ?? []) {
    if (r.name.includes('/')) continue;
    const entry: Record<string, unknown> = {
      resource: r.name,
      responseKind: kindOf(r),
      scope: r.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: r.singularName ?? '',
      verbs: r.verbs ?? [],
      ...(r.shortNames?.length ? { shortNames: r.shortNames } : {}),
      ...(r.categories?.length ? { categories: r.categories } : {}),
    };
    byName.set(r.name, entry);
    out.push(entry);
  }
  for (const r of list.resources ?? []) {
    const [parent, sub] = r.name.split('/', 2) as [string, string | undefined];
    if (!sub) continue;
    let entry = byName.get(parent);
    if (!entry) {
      entry = { resource: parent, scope: r.namespaced ? 'Namespaced' : 'Cluster', verbs: [] };
      byName.set(parent, entry);
      out.push(entry);
    }
    const subs = (entry.subresources as unknown[] | undefined) ?? [];
    subs.push({ subresource: sub, responseKind: kindOf(r), verbs: r.verbs ?? [] });
    entry.subresources = subs;
  }
  return out;
}

/** Remote groups for discovery. */
export class RemoteDiscovery implements ExternalDiscovery {
  private readonly fetched = new Map<string, { resources: readonly unknown[]; freshness: 'Current' | 'Stale' }>();
  private readonly listeners: Array<() => void> = [];
  private readonly inFlight = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: { readonly index: APIServiceIndex; readonly resolver: ServiceResolver; readonly transports: BackendTransports; readonly log: Logger },
  ) {}

  /** Starts following the APIServices. */
  start(): void {
    this.deps.index.onChange((name) => {
      const api = this.deps.index.get(name);
      if (!api?.service) {
        if (this.fetched.delete(name) || !api) this.changed();
        return;
      }
      this.changed();
      void this.refresh(api);
    });
    for (const api of this.deps.index.remote()) void this.refresh(api);
    this.timer = setInterval(() => {
      for (const api of this.deps.index.remote()) void this.refresh(api);
    }, refreshMs);
    this.timer.unref();
  }

  /** Stops refreshing. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }

  groupPriority(group: string): number | undefined {
    let max: number | undefined;
    for (const api of this.deps.index.all()) if (api.group === group && (max === undefined || api.groupPriorityMinimum > max)) max = api.groupPriorityMinimum;
    return max;
  }

  groups(): readonly ExternalGroup[] {
    const byGroup = new Map<string, { groupPriority: number; versions: ExternalVersion[] }>();
    for (const api of this.deps.index.remote()) {
      if (api.group === '') continue;
      const g = byGroup.get(api.group) ?? { groupPriority: 0, versions: [] };
      g.groupPriority = Math.max(g.groupPriority, api.groupPriorityMinimum);
      const f = this.fetched.get(api.name);
      g.versions.push({ version: api.version, versionPriority: api.versionPriority, ...(f ? { resources: f.resources } : {}), freshness: f?.freshness ?? 'Stale' });
      byGroup.set(api.group, g);
    }
    return [...byGroup.entries()].map(([group, g]) => ({ group, ...g }));
  }

  /** Fetches api's resources (at most one fetch per APIService at a time). */
  async refresh(api: APIServiceView): Promise<void> {
    if (this.inFlight.has(api.name) || !api.available || !api.service) return;
    this.inFlight.add(api.name);
    try {
      const resources = await this.fetchResources(api);
      const before = JSON.stringify(this.fetched.get(api.name));
      this.fetched.set(api.name, { resources, freshness: 'Current' });
      if (JSON.stringify(this.fetched.get(api.name)) !== before) this.changed();
    } catch (err) {
      this.deps.log.v(2, `discovery of APIService ${api.name} failed: ${(err as Error).message}`);
      const prior = this.fetched.get(api.name);
      if (prior && prior.freshness !== 'Stale') {
        this.fetched.set(api.name, { ...prior, freshness: 'Stale' });
        this.changed();
      }
    } finally {
      this.inFlight.delete(api.name);
    }
  }

  private async fetchResources(api: APIServiceView): Promise<readonly unknown[]> {
    const backend = this.deps.resolver.resolve(api.service as NonNullable<APIServiceView['service']>);
    const agent = this.deps.transports.agentFor(api);
    try {
      const doc = await fetchFromBackend(backend, agent, '/apis', aggregatedAccept);
      const parsed = JSON.parse(doc.body.toString('utf8')) as { kind?: string; items?: Array<{ metadata?: { name?: string }; versions?: Array<{ version?: string; resources?: unknown[] }> }> };
      if (parsed.kind === 'APIGroupDiscoveryList') {
        const version = parsed.items?.find((i) => i.metadata?.name === api.group)?.versions?.find((v) => v.version === api.version);
        if (version) return version.resources ?? [];
      }
    } catch {
      // A server without aggregated discovery: its legacy document follows.
    }
    const legacy = await fetchFromBackend(backend, agent, `/apis/${api.group}/${api.version}`, 'application/json');
    return resourcesFromLegacy(JSON.parse(legacy.body.toString('utf8')) as { resources?: LegacyResource[] });
  }
}
