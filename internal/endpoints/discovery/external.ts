/**
 * Discovery of groups served elsewhere (the aggregator's extension servers) merged with what the
 * installer serves, as kube-aggregator's /apis answers: every group ordered by its APIServices'
 * highest groupPriorityMinimum (then by name), a group's versions by versionPriority (then kube's
 * version order); aggregated discovery carries each remote group version's resources as fetched
 * from its server, Stale when the last fetch failed.
 */
import { compareKubeAwareVersions, type ApiInstaller, type ServedGroup } from '../installer.js';

/** One remote group version's aggregated discovery entry (APIVersionDiscovery). */
export interface ExternalVersion {
  readonly version: string;
  readonly versionPriority: number;
  /** The APIVersionDiscovery resources, when fetched. */
  readonly resources?: readonly unknown[];
  readonly freshness: 'Current' | 'Stale';
}

/** A group served by extension servers. */
export interface ExternalGroup {
  readonly group: string;
  readonly groupPriority: number;
  readonly versions: readonly ExternalVersion[];
}

/** What discovery asks of the aggregator. */
export interface ExternalDiscovery {
  /** Groups with service-backed versions. */
  groups(): readonly ExternalGroup[];
  /** The priority of a group (its APIServices' highest groupPriorityMinimum), if it has APIServices. */
  groupPriority(group: string): number | undefined;
  /** Called after every change. */
  onChange(listener: () => void): void;
}

/** One merged group: its name, versions in order (preferred first) and where each is served. */
export interface MergedGroup {
  readonly group: string;
  readonly versions: readonly string[];
  readonly local?: ServedGroup;
  readonly remote?: ExternalGroup;
}

function sortRemote(versions: readonly ExternalVersion[]): ExternalVersion[] {
  return [...versions].sort((a, b) => b.versionPriority - a.versionPriority || compareKubeAwareVersions(a.version, b.version));
}

/** The named groups, local and remote, in kube-aggregator's order. */
export function mergedGroups(installer: ApiInstaller, external: ExternalDiscovery): MergedGroup[] {
  const remote = new Map(external.groups().map((g) => [g.group, g]));
  const out: Array<MergedGroup & { priority: number; index: number }> = [];
  let index = 0;
  for (const local of installer.groups()) {
    if (local.group === '') continue;
    const r = remote.get(local.group);
    remote.delete(local.group);
    const localVersions = local.versions.map((v) => v.version);
    const extra = r ? sortRemote(r.versions).map((v) => v.version).filter((v) => !localVersions.includes(v)) : [];
    // The aggregator's own group has no APIService and always comes first (kube's apisHandler).
    const priority = local.group === 'apiregistration.k8s.io' ? Number.POSITIVE_INFINITY : (external.groupPriority(local.group) ?? 0);
    out.push({ group: local.group, versions: [...localVersions, ...extra], local, ...(r ? { remote: r } : {}), priority, index: index++ });
  }
  for (const r of remote.values()) out.push({ group: r.group, versions: sortRemote(r.versions).map((v) => v.version), remote: r, priority: r.groupPriority, index: index++ });
  // Groups without any APIService (none yet registered) keep the installer's order after the rest.
  out.sort((a, b) => (a.priority === 0 || b.priority === 0 ? (a.priority === 0 ? (b.priority === 0 ? a.index - b.index : 1) : -1) : (a.priority === b.priority ? 0 : b.priority > a.priority ? 1 : -1) || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0)));
  return out.map(({ priority: _p, index: _i, ...g }) => g);
}

function gv(group: string, version: string): { groupVersion: string; version: string } {
  return { groupVersion: `${group}/${version}`, version };
}

/** An APIGroup entry of a merged group. */
export function mergedApiGroup(g: MergedGroup): Record<string, unknown> {
  const preferred = g.local?.preferredVersion ?? (g.versions[0] as string);
  return { name: g.group, versions: g.versions.map((v) => gv(g.group, v)), preferredVersion: gv(g.group, preferred) };
}

/** The aggregated discovery items of the remote groups (those with at least one fetched version). */
export function remoteAggregatedItem(g: ExternalGroup): Record<string, unknown> | undefined {
  const versions = sortRemote(g.versions)
    .filter((v) => v.resources !== undefined)
    .map((v) => ({ version: v.version, resources: v.resources, freshness: v.freshness }));
  return versions.length > 0 ? { metadata: { creationTimestamp: null, name: g.group }, versions } : undefined;
}
