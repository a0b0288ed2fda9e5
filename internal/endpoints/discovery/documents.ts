/**
 * Discovery documents for what the installer serves: the legacy ones (/api, /api/v1, /apis,
 * /apis/<group>, /apis/<group>/<version>) and the aggregated APIGroupDiscoveryList for /api and
 * /apis, in the shapes kube-apiserver 1.33 answers with.
 */
import type { ApiInstaller, ServedGroup, ServedGroupVersion, ServedResource } from '../installer.js';

function gv(group: string, version: string): { groupVersion: string; version: string } {
  return { groupVersion: group ? `${group}/${version}` : version, version };
}

/** /api: APIVersions. */
export function apiVersions(serverAddress: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function apiGroup(g: ServedGroup): Record<string, unknown> {
  return {
    name: g.group,
    versions: g.versions.map((v) => gv(g.group, v.version)),
    preferredVersion: gv(g.group, g.preferredVersion),
  };
}

/** /apis: APIGroupList of every named group. */
export function apiGroupList(installer: ApiInstaller): Record<string, unknown> {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: installer.groups().filter((g) => g.group !== '').map(apiGroup) };
}

/** /apis/<group>: APIGroup, or undefined when the group is not served. */
export function apiGroupDocument(installer: ApiInstaller, group: string): Record<string, unknown> | undefined {
  const g = installer.groups().find((x) => x.group === group && group !== '');
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g) } : undefined;
}

function legacyEntries(r: ServedResource, withHash: boolean): Record<string, unknown>[] {
  const info = r.info;
  const main: Record<string, unknown> = {
    name: info.resource,
    singularName: info.singularName,
    namespaced: info.namespaced,
    kind: info.kind,
    verbs: [...r.main.verbs],
    ...(info.shortNames.length > 0 ? { shortNames: info.shortNames } : {}),
    ...(info.categories.length > 0 ? { categories: info.categories } : {}),
    ...(withHash && info.storageVersionHash ? { storageVersionHash: info.storageVersionHash } : {}),
  };
  const subs = [...r.subresources]
    .sort((a, b) => a.info.name.localeCompare(b.info.name))
    .map((s) => {
      const crossGroup = s.info.kind !== info.kind;
      return {
        name: `${info.resource}/${s.info.name}`,
        singularName: '',
        namespaced: info.namespaced,
        ...(crossGroup && s.info.group !== r.main.group ? { group: s.info.group, version: s.info.version } : {}),
        kind: s.info.kind,
        verbs: [...s.scope.verbs],
      };
    });
  return [main, ...subs];
}

/** /api/v1 and /apis/<group>/<version>: APIResourceList; withHash: the StorageVersionHash gate (each resource's storageVersionHash). */
export function apiResourceList(v: ServedGroupVersion, withHash = true): Record<string, unknown> {
  const resources = v.resources.flatMap((r) => legacyEntries(r, withHash));
  return v.group === ''
    ? { kind: 'APIResourceList', groupVersion: 'v1', resources }
    : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${v.group}/${v.version}`, resources };
}

function aggregatedResource(r: ServedResource): Record<string, unknown> {
  const info = r.info;
  const subs = [...r.subresources]
    .sort((a, b) => a.info.name.localeCompare(b.info.name))
    .map((s) => ({
      subresource: s.info.name,
      responseKind: s.info.kind === info.kind ? { group: '', kind: s.info.kind, version: '' } : { group: s.info.group, kind: s.info.kind, version: s.info.version },
      verbs: [...s.scope.verbs],
    }));
  return {
    resource: info.resource,
    responseKind: { group: '', kind: info.kind, version: '' },
    scope: info.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: info.singularName,
    verbs: [...r.main.verbs],
    ...(info.shortNames.length > 0 ? { shortNames: info.shortNames } : {}),
    ...(info.categories.length > 0 ? { categories: info.categories } : {}),
    ...(subs.length > 0 ? { subresources: subs } : {}),
  };
}

/** The aggregated discovery document for /api (core only) or /apis (named groups). */
export function aggregatedDiscovery(installer: ApiInstaller, legacy: boolean, apiVersion: string): Record<string, unknown> {
  const groups = installer.groups().filter((g) => (legacy ? g.group === '' : g.group !== ''));
  return aggregatedList(apiVersion, groups.map((g) => aggregatedGroupItem(g)));
}

/** An APIGroupDiscoveryList of items. */
export function aggregatedList(apiVersion: string, items: readonly unknown[]): Record<string, unknown> {
  return { kind: 'APIGroupDiscoveryList', apiVersion, metadata: {}, items };
}

/** The APIGroupDiscovery item of a served group; extraVersions (already in order) follow its own. */
export function aggregatedGroupItem(g: ServedGroup, extraVersions: readonly unknown[] = []): Record<string, unknown> {
  return {
    metadata: { creationTimestamp: null, ...(g.group ? { name: g.group } : {}) },
    versions: [
      ...g.versions.map((v) => ({
        version: v.version,
        resources: v.resources.map(aggregatedResource),
        freshness: 'Current',
      })),
      ...extraVersions,
    ],
  };
}
