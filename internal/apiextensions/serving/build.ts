/**
 * Builds what serves one CRD (kube's crdHandler.getOrCreateServingInfoFor): per served version a
 * generic store over the resource's watch cache (through a converting storage unless it is the
 * storage version), its status and scale subresources, the Table printer, selectable fields, the
 * schema hooks (pruning, defaulting, apply types), the deprecation warning, and discovery facts.
 * Built once per CRD change; everything compiled here is reused by every request.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../../api/meta/types.js';
import type { GeneratedResource, GeneratedSubresource } from '../../../api/resource-info.js';
import { newMethodNotSupported } from '../../apierrors/factories.js';
import { StatusError } from '../../apierrors/status-error.js';
import type { DynamicVersion } from '../../endpoints/installer.js';
import type { TablePrinter } from '../../endpoints/negotiation/printers/types.js';
import type { CustomResourceHooks, ResourceScope } from '../../endpoints/scope.js';
import type { Logger } from '../../observability/logging.js';
import type { StoreHooks } from '../../registry/generic/hooks.js';
import { noFinish } from '../../registry/generic/hooks.js';
import { ScaleStore } from '../../registry/generic/scale-store.js';
import { StatusStore } from '../../registry/generic/status-store.js';
import { GenericStore, type StoreSettings } from '../../registry/generic/store.js';
import type { ValidateObjectFunc, WriteOptions } from '../../registry/interface.js';
import type { RequestContext } from '../../request/context.js';
import type { Storage } from '../../storage/interface.js';
import { buildConverter, type ConverterDeps } from '../conversion/index.js';
import type { VersionSchema } from '../interface.js';
import { compileVersionSchema } from '../schema/index.js';
import { ConvertingStorage } from './converting-storage.js';
import { storageVersionOf, type CrdFacts, type CrdVersion } from './crd.js';
import { customResourcePrinter } from './printer.js';
import { customResourceScaleMapping } from './scale.js';
import { customResourceStatusStrategy, customResourceStrategy } from './strategy.js';

/** What building needs from the server. */
export interface BuildDeps extends ConverterDeps {
  /** The server's storage (watch cache over etcd); forResource gives the CR's own cache. */
  readonly storage: Storage;
  readonly storeSettings?: StoreSettings;
  readonly log: Logger;
}

/** Live state of a CRD read by its stores on every request (it changes without a rebuild). */
export interface CrdLiveState {
  /** True while the CRD is being deleted: creates are refused. */
  terminating: boolean;
  /** Makes sure the storage version is in status.storedVersions before a write lands in it. */
  recordStoredVersion(version: string): Promise<void>;
}

/** What serves one CRD. */
export interface CrdServing {
  readonly group: string;
  readonly plural: string;
  readonly versions: readonly DynamicVersion[];
  /**
   * Defaulting of objects read from etcd, by the version they were stored in (kube's decoder
   * defaults with the stored version's schema): one per version of the CRD, keyed "group/version/Kind".
   */
  readonly storedDefaulters: ReadonlyMap<string, (obj: KubeObject) => void>;
}

const crVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const subresourceVerbs = ['get', 'patch', 'update'];

/** kube's discovery.StorageVersionHash: the first 8 bytes of sha256("group/version/kind"), base64. */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

/** kube's default deprecation warning of a version. */
export function deprecationWarningOf(group: string, v: CrdVersion, kind: string): string | undefined {
  if (!v.deprecated) return undefined;
  return v.deprecationWarning ?? `${group}/${v.name} ${kind} is deprecated`;
}

/** A generic store whose creates are refused while the CRD terminates (kube's CRD handler check). */
class CustomResourceStore extends GenericStore {
  constructor(
    private readonly live: CrdLiveState,
    ...args: ConstructorParameters<typeof GenericStore>
  ) {
    super(...args);
  }

  override async create(ctx: RequestContext, input: KubeObject, opts: WriteOptions, validate?: ValidateObjectFunc): Promise<KubeObject> {
    if (this.live.terminating) {
      // kube's CRD handler: MethodNotSupported with its own message.
      const details = newMethodNotSupported(this.gr, 'create').status.details;
      throw new StatusError(405, 'MethodNotAllowed', 'create not allowed while custom resource definition is terminating', details);
    }
    return await super.create(ctx, input, opts, validate);
  }
}

/** Builds the serving of f (an established CRD) in its served versions. */
export function buildCrdServing(crd: KubeObject, f: CrdFacts, live: CrdLiveState, deps: BuildDeps): CrdServing {
  const { group, names } = f;
  const plural = names.plural;
  const storageVersion = storageVersionOf(f);
  if (!storageVersion) return { group, plural, versions: [], storedDefaulters: new Map() };
  const storageApiVersion = `${group}/${storageVersion}`;
  const gr = { group, resource: plural };
  const keyPrefix = `/${group}/${plural}`;
  const base = deps.storage.forResource ? deps.storage.forResource(gr, keyPrefix) : deps.storage;
  const converter = buildConverter(crd, deps);
  const hash = storageVersionHash(group, storageVersion, names.kind);
  const hooks: StoreHooks = {
    beginCreate: async (_ctx, _obj, dryRun) => {
      if (!dryRun) await live.recordStoredVersion(storageVersion);
      return noFinish;
    },
    beginUpdate: async (_ctx, _obj, _old, dryRun) => {
      if (!dryRun) await live.recordStoredVersion(storageVersion);
      return noFinish;
    },
  };
  const schemas = new Map<string, VersionSchema>();
  const schemaOf = (v: CrdVersion): VersionSchema => {
    let s = schemas.get(v.name);
    if (!s) {
      s = compileVersionSchema(v.schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, { kind: names.kind });
      schemas.set(v.name, s);
    }
    return s;
  };
  const versions: DynamicVersion[] = [];
  for (const v of f.versions) {
    if (!v.served) continue;
    const apiVersion = `${group}/${v.name}`;
    const schema = schemaOf(v);
    const storage =
      v.name === storageVersion
        ? base
        : new ConvertingStorage({ base, converter, servedApiVersion: apiVersion, storageApiVersion, defaults: (o) => schema.applyDefaults(o) });
    const strategyOptions = {
      group,
      version: v.name,
      kind: names.kind,
      namespaced: f.namespaced,
      schema,
      hasStatus: v.status,
      ...(v.scale ? { scale: v.scale } : {}),
      selectableFields: v.selectableFields,
    };
    const strategy = customResourceStrategy(strategyOptions);
    const store = new CustomResourceStore(live, { group, resource: plural, kind: names.kind, keyPrefix }, strategy, storage, hooks, deps.storeSettings ?? {});
    let printer: TablePrinter | undefined;
    try {
      printer = customResourcePrinter(v.columns);
    } catch (err) {
      deps.log.error(`custom resource ${plural}.${group}/${v.name}: ${(err as Error).message}; serving Tables without its columns`);
    }
    const deprecationWarning = deprecationWarningOf(group, v, names.kind);
    const custom: CustomResourceHooks = {
      prune: (obj) => schema.prune(obj),
      typeResolver: schema.typeResolver,
      ...(deprecationWarning ? { deprecationWarning } : {}),
    };
    const main: ResourceScope = {
      group,
      version: v.name,
      resource: plural,
      subresource: '',
      namespaced: f.namespaced,
      kind: names.kind,
      apiVersion,
      listKind: names.listKind,
      storage: store,
      verbs: new Set(crVerbs),
      selectableFields: strategy.selectableFields,
      stored: { apiVersion, kind: names.kind },
      protobuf: false,
      hasStatusSubresource: v.status,
      defaulter: (obj) => schema.applyDefaults(obj),
      gr,
      ...(printer ? { printer } : {}),
      custom,
    };
    const subresources: Array<{ info: GeneratedSubresource; scope: ResourceScope }> = [];
    if (v.status) {
      subresources.push({
        info: { name: 'status', group, version: v.name, kind: names.kind, verbs: subresourceVerbs },
        scope: { ...main, subresource: 'status', storage: new StatusStore(store, customResourceStatusStrategy(strategyOptions)), verbs: new Set(subresourceVerbs) },
      });
    }
    if (v.scale) {
      const scaleScope: ResourceScope = {
        ...main,
        subresource: 'scale',
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        listKind: 'ScaleList',
        stored: { apiVersion: 'autoscaling/v1', kind: 'Scale' },
        storage: new ScaleStore(store, customResourceScaleMapping(v.scale)),
        verbs: new Set(subresourceVerbs),
        defaulter: undefined,
        printer: undefined,
        custom: undefined,
      };
      subresources.push({ info: { name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: subresourceVerbs }, scope: scaleScope });
    }
    const info: GeneratedResource = {
      group,
      version: v.name,
      resource: plural,
      kind: names.kind,
      namespaced: f.namespaced,
      singularName: names.singular,
      shortNames: names.shortNames,
      categories: names.categories,
      verbs: crVerbs,
      storageVersionHash: hash,
      subresources: subresources.map((s) => s.info),
    };
    versions.push({ version: v.name, info, main, subresources, discoverable: f.conditions.get('Established') === 'True' });
  }
  // Objects stored before the storage version changed are still in their old version.
  const storedDefaulters = new Map<string, (obj: KubeObject) => void>();
  for (const v of f.versions) {
    if (!v.schema) continue;
    const schema = schemaOf(v);
    storedDefaulters.set(`${group}/${v.name}/${names.kind}`, (obj) => schema.applyDefaults(obj));
  }
  return { group, plural, versions, storedDefaulters };
}
