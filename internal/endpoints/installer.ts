/**
 * The installer: turns resource registrations plus the generated API facts (kinds, names,
 * verbs) into the ResourceScopes the dispatcher routes to and the data discovery reports.
 * Only what is registered is served; a registration the data does not know is a startup error.
 */
import { generatedGroups, generatedResources } from '../../api/gen/resources.js';
import { messageForKind } from '../../proto/registry.js';
import { apiVersionOf } from '../../api/meta/types.js';
import type { KubeObject } from '../../api/meta/types.js';
import type { GeneratedResource, GeneratedSubresource } from '../../api/resource-info.js';
import type { RestStorage } from '../registry/interface.js';
import type { ResourceRegistration } from '../registry/registration.js';
import type { ResourceScope } from './scope.js';

/** A served resource with its scopes, for discovery. */
export interface ServedResource {
  readonly info: GeneratedResource;
  readonly main: ResourceScope;
  readonly subresources: ReadonlyArray<{ readonly info: GeneratedSubresource; readonly scope: ResourceScope }>;
}

/** A served group version. */
export interface ServedGroupVersion {
  readonly group: string;
  readonly version: string;
  readonly resources: readonly ServedResource[];
}

/** A served group with its versions, preferred first. */
export interface ServedGroup {
  readonly group: string;
  readonly versions: readonly ServedGroupVersion[];
  readonly preferredVersion: string;
}

const verbMethods: ReadonlyArray<[string, keyof RestStorage]> = [
  ['create', 'create'],
  ['delete', 'delete'],
  ['deletecollection', 'deleteCollection'],
  ['get', 'get'],
  ['list', 'list'],
  ['patch', 'update'],
  ['update', 'update'],
  ['watch', 'watch'],
];

function implementedVerbs(storage: RestStorage, declared: readonly string[]): Set<string> {
  // A connect subresource serves every verb it declares through connect().
  if (typeof storage.connect === 'function') return new Set(declared);
  const have = new Set(verbMethods.filter(([, m]) => typeof storage[m] === 'function').map(([v]) => v));
  return new Set(declared.filter((v) => have.has(v)));
}

/** Whether a kind (and, for listable endpoints, its list) can be written as Protobuf. */
function canProtobuf(group: string, version: string, kind: string, withList = true): boolean {
  return messageForKind(group, version, kind) !== undefined && (!withList || messageForKind(group, version, `${kind}List`) !== undefined);
}

function scopeKey(group: string, version: string, resource: string, subresource: string): string {
  return `${group}/${version}/${resource}/${subresource}`;
}

/**
 * kube's version priority (apimachinery's CompareKubeAwareVersionStrings): GA before beta before
 * alpha, higher numbers first within each, then versions that do not look like kube versions in
 * alphabetical order. Negative when a sorts before b.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const parse = (v: string): [number, number, number] | undefined => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return undefined;
    return [m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2, Number(m[1]), m[3] ? Number(m[3]) : 0];
  };
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb) return pa ? -1 : pb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  if (pa[0] !== pb[0]) return pb[0] - pa[0];
  if (pa[1] !== pb[1]) return pb[1] - pa[1];
  return pb[2] - pa[2];
}

/**
 * What a resource registered at run time (a custom resource) serves in one version: the facts
 * discovery reports (info) and the ready-made scopes of the resource and its subresources.
 */
export interface DynamicVersion {
  readonly version: string;
  readonly info: GeneratedResource;
  readonly main: ResourceScope;
  readonly subresources: ReadonlyArray<{ readonly info: GeneratedSubresource; readonly scope: ResourceScope }>;
  /**
   * False while the version is routed but not yet listed in discovery (a CRD whose names are
   * accepted but that is not yet Established, as kube's discovery controller lists only
   * established ones). Default true.
   */
  readonly discoverable?: boolean;
}

/** The routing table and discovery data of everything registered. */
export class ApiInstaller {
  private readonly scopes = new Map<string, ResourceScope>();
  private served: ServedGroup[];
  /** The groups served from the registrations made at start, in discovery order. */
  private readonly builtinServed: ServedGroup[];
  /** Run-time resources by "group/resource", each with its served versions. */
  private readonly dynamic = new Map<string, readonly DynamicVersion[]>();
  private readonly listeners: Array<() => void> = [];

  constructor(registrations: readonly ResourceRegistration[]) {
    const byGV = new Map<string, ServedResource[]>();
    for (const reg of registrations) {
      const info = generatedResources.find((r) => r.group === reg.group && r.version === reg.version && r.resource === reg.resource);
      if (!info) throw new Error(`registration ${reg.group}/${reg.version}/${reg.resource} is not in the generated API data`);
      if (info.namespaced !== reg.namespaced) throw new Error(`registration ${reg.resource}: scope disagrees with the API data`);
      const gr = { group: reg.group, resource: reg.resource };
      const apiVersion = apiVersionOf(reg.group, reg.version);
      const stored = reg.conversion ? { apiVersion: 'v1', kind: info.kind } : { apiVersion, kind: info.kind };
      const main: ResourceScope = {
        group: reg.group,
        version: reg.version,
        resource: reg.resource,
        subresource: '',
        namespaced: reg.namespaced,
        kind: info.kind,
        apiVersion,
        listKind: `${info.kind}List`,
        storage: reg.main,
        verbs: implementedVerbs(reg.main, info.verbs),
        selectableFields: reg.selectableFields,
        stored: reg.storedAs ?? stored,
        ...(reg.conversion ? { conversion: reg.conversion } : {}),
        ...(reg.defaulter ? { defaulter: reg.defaulter } : {}),
        hasStatusSubresource: 'status' in reg.subresources,
        // A resource that is never listed (the review APIs) needs no List message.
        protobuf: canProtobuf(reg.group, reg.version, info.kind, info.verbs.includes('list')),
        gr,
      };
      this.scopes.set(scopeKey(reg.group, reg.version, reg.resource, ''), main);
      const subs: Array<{ info: GeneratedSubresource; scope: ResourceScope }> = [];
      for (const [name, storage] of Object.entries(reg.subresources)) {
        const subInfo = info.subresources.find((s) => s.name === name);
        if (!subInfo) throw new Error(`subresource ${reg.resource}/${name} is not in the generated API data`);
        const sameKind = subInfo.kind === info.kind;
        const scope: ResourceScope = {
          ...main,
          subresource: name,
          kind: subInfo.kind,
          apiVersion: sameKind ? apiVersion : apiVersionOf(subInfo.group, subInfo.version),
          listKind: `${subInfo.kind}List`,
          protobuf: sameKind ? main.protobuf : canProtobuf(subInfo.group, subInfo.version, subInfo.kind, false),
          storage,
          verbs: implementedVerbs(storage, subInfo.verbs),
          ...(sameKind && reg.conversion ? { conversion: reg.conversion } : { conversion: undefined }),
          ...(sameKind && reg.defaulter ? { defaulter: reg.defaulter } : { defaulter: undefined }),
        };
        if (!sameKind) {
          (scope as { stored: ResourceScope['stored'] }).stored = { apiVersion: scope.apiVersion, kind: scope.kind };
        }
        this.scopes.set(scopeKey(reg.group, reg.version, reg.resource, name), scope);
        subs.push({ info: subInfo, scope });
      }
      const gvKey = `${reg.group}/${reg.version}`;
      const list = byGV.get(gvKey) ?? [];
      list.push({ info, main, subresources: subs });
      byGV.set(gvKey, list);
    }
    this.served = [];
    for (const g of generatedGroups) {
      const versions: ServedGroupVersion[] = [];
      for (const v of g.versions) {
        const resources = byGV.get(`${g.group}/${v}`);
        if (resources) {
          // Discovery lists resources in the order of the API data.
          const order = generatedResources.filter((r) => r.group === g.group && r.version === v).map((r) => r.resource);
          resources.sort((a, b) => order.indexOf(a.info.resource) - order.indexOf(b.info.resource));
          versions.push({ group: g.group, version: v, resources });
        }
      }
      if (versions.length > 0) {
        const preferred = versions.find((v) => v.version === g.preferredVersion)?.version ?? (versions[0] as ServedGroupVersion).version;
        versions.sort((a, b) => (a.version === preferred ? -1 : b.version === preferred ? 1 : 0));
        this.served.push({ group: g.group, versions, preferredVersion: preferred });
      }
    }
    this.builtinServed = this.served;
  }

  /**
   * Serves a resource registered at run time in the given versions (replacing what it served
   * before), or stops serving it when versions is empty. Its routes change at once; listeners
   * (discovery, OpenAPI) are told afterwards. Groups of such resources follow the built-in groups
   * in discovery, in alphabetical order, their versions by kube's version priority (as the
   * aggregator orders CRD groups, which all have the same priority).
   */
  setDynamicResource(group: string, resource: string, versions: readonly DynamicVersion[]): void {
    const key = `${group}/${resource}`;
    for (const v of this.dynamic.get(key) ?? []) {
      this.scopes.delete(scopeKey(group, v.version, resource, ''));
      for (const s of v.subresources) this.scopes.delete(scopeKey(group, v.version, resource, s.info.name));
    }
    if (versions.length === 0) this.dynamic.delete(key);
    else this.dynamic.set(key, versions);
    for (const v of versions) {
      this.scopes.set(scopeKey(group, v.version, resource, ''), v.main);
      for (const s of v.subresources) this.scopes.set(scopeKey(group, v.version, resource, s.info.name), s.scope);
    }
    this.rebuildServed();
    for (const l of this.listeners) l();
  }

  /**
   * The resources registered at run time, one entry per group/resource with the storage of its
   * first served version (every version reaches the same objects), for in-process callers that
   * follow every resource (namespace deletion, garbage collection).
   */
  dynamicResources(): Array<{ group: string; resource: string; kind: string; version: string; namespaced: boolean; storage: RestStorage }> {
    const out: Array<{ group: string; resource: string; kind: string; version: string; namespaced: boolean; storage: RestStorage }> = [];
    for (const versions of this.dynamic.values()) {
      const v = [...versions].sort((a, b) => compareKubeAwareVersions(a.version, b.version))[0];
      if (!v) continue;
      out.push({ group: v.main.group, resource: v.main.resource, kind: v.main.kind, version: v.version, namespaced: v.main.namespaced, storage: v.main.storage });
    }
    return out;
  }

  /** Calls listener after every change of what is served (never during construction). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private rebuildServed(): void {
    const byGroup = new Map<string, Map<string, ServedResource[]>>();
    for (const [key, versions] of this.dynamic) {
      const group = key.slice(0, key.lastIndexOf('/'));
      const gv = byGroup.get(group) ?? new Map<string, ServedResource[]>();
      for (const v of versions) {
        if (v.discoverable === false) continue;
        gv.set(v.version, [...(gv.get(v.version) ?? []), { info: v.info, main: v.main, subresources: v.subresources }]);
      }
      if (gv.size > 0) byGroup.set(group, gv);
    }
    const toServed = (group: string, gv: Map<string, ServedResource[]>, existing?: ServedGroup): ServedGroup => {
      const versions = new Map<string, ServedResource[]>((existing?.versions ?? []).map((v) => [v.version, [...v.resources]]));
      for (const [v, rs] of gv) versions.set(v, [...(versions.get(v) ?? []), ...[...rs].sort((a, b) => a.info.resource.localeCompare(b.info.resource))]);
      const list = [...versions.entries()].map(([version, resources]) => ({ group, version, resources }));
      list.sort((a, b) => compareKubeAwareVersions(a.version, b.version));
      const preferred = existing?.preferredVersion ?? (list[0] as ServedGroupVersion).version;
      list.sort((a, b) => (a.version === preferred ? -1 : b.version === preferred ? 1 : compareKubeAwareVersions(a.version, b.version)));
      return { group, versions: list, preferredVersion: preferred };
    };
    const out = this.builtinServed.map((g) => {
      const gv = byGroup.get(g.group);
      return gv ? toServed(g.group, gv, g) : g;
    });
    for (const group of [...byGroup.keys()].sort()) {
      if (this.builtinServed.some((g) => g.group === group)) continue;
      out.push(toServed(group, byGroup.get(group) as Map<string, ServedResource[]>));
    }
    this.served = out;
  }

  /** The scope for a (sub)resource, or undefined. */
  lookup(group: string, version: string, resource: string, subresource: string): ResourceScope | undefined {
    return this.scopes.get(scopeKey(group, version, resource, subresource));
  }

  /**
   * The storage of a (sub)resource in whatever version serves it (every version shares one store,
   * which reads and writes the stored form), for in-process callers: authenticators, authorizers,
   * controllers. Undefined when the resource is not served.
   */
  storageOf(group: string, resource: string, subresource = ''): RestStorage | undefined {
    for (const s of this.scopes.values()) {
      if (s.group === group && s.resource === resource && s.subresource === subresource) return s.storage;
    }
    return undefined;
  }

  /** Whether the group version is served at all. */
  servesGroupVersion(group: string, version: string): boolean {
    return this.groupVersion(group, version) !== undefined;
  }

  /** A served group version. */
  groupVersion(group: string, version: string): ServedGroupVersion | undefined {
    return this.served.find((g) => g.group === group)?.versions.find((v) => v.version === version);
  }

  /** Served groups in discovery order; the core group ("") first. */
  groups(): readonly ServedGroup[] {
    return this.served;
  }

  /** Every main scope (one per resource and version). */
  resourceScopes(): ResourceScope[] {
    return [...this.scopes.values()].filter((s) => s.subresource === '');
  }

  /**
   * Defaulting for objects as they come out of storage, keyed by their stored apiVersion and
   * kind: the defaulter of the version that is stored as itself. Like kube's decoding from etcd,
   * it fills in what an object stored before a default existed (or in an encoding that cannot
   * carry a field) would lack. Objects of other kinds pass unchanged.
   */
  storedObjectDefaulter(): (obj: KubeObject) => void {
    const byStoredKind = new Map<string, (obj: KubeObject) => void>();
    for (const s of this.resourceScopes()) {
      if (s.conversion || !s.defaulter) continue;
      byStoredKind.set(`${s.apiVersion}/${s.kind}`, s.defaulter);
    }
    return (obj) => {
      if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return;
      byStoredKind.get(`${obj.apiVersion}/${obj.kind}`)?.(obj);
    };
  }
}
