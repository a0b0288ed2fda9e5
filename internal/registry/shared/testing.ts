/**
 * Fixtures for the resource modules' etcd-backed tests: build a module's registrations over a
 * fresh key prefix, and write or read objects through one registration the way the endpoint
 * handlers do (defaulting, conversion to the stored form, and back). Test code only.
 */
import { apiVersionOf, type KubeObject } from '../../../api/meta/types.js';
import { jsonCodec } from '../../storage/codec.js';
import { Etcd3Store } from '../../storage/etcd3/store.js';
import type { RequestContext } from '../../request/context.js';
import { uniquePrefix, type EtcdFixture } from '../../../test/support/etcd.js';
import { generatedResources } from '../../../api/gen/resources.js';
import type { ResourceModule, ResourceRegistration } from '../registration.js';
import { requestContext } from '../core/shared/testing.js';
import type { UpdatedObjectInfo } from '../interface.js';

/** A module's registrations over a unique prefix of the fixture's etcd, and that storage. */
export function setupModule(fx: EtcdFixture, module: ResourceModule): { regs: ResourceRegistration[]; storage: Etcd3Store } {
  const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('res'), codec: jsonCodec });
  return { regs: module({ storage, serviceClusterIPRange: '10.0.0.0/24' }), storage };
}

/** The registration of one version. */
export function versionOf(regs: readonly ResourceRegistration[], version: string): ResourceRegistration {
  const reg = regs.find((r) => r.version === version);
  if (!reg) throw new Error(`no registration for ${version}`);
  return reg;
}

/** A request context for reg's collection in namespace ns (ignored for cluster-scoped resources). */
export function contextFor(reg: ResourceRegistration, method = 'POST', ns = 'ns'): RequestContext {
  const prefix = reg.group ? `/apis/${reg.group}/${reg.version}` : '/api/v1';
  return requestContext(method, reg.namespaced ? `${prefix}/namespaces/${ns}/${reg.resource}` : `${prefix}/${reg.resource}`);
}

function kindOf(reg: ResourceRegistration): string {
  return generatedResources.find((r) => r.group === reg.group && r.version === reg.version && r.resource === reg.resource)?.kind ?? '';
}

/** obj as the handlers pass it to the store: defaulted in reg's version, then converted to the stored form. */
export function decodeVia(reg: ResourceRegistration, obj: KubeObject): KubeObject {
  const copy = structuredClone(obj);
  reg.defaulter?.(copy);
  if (!reg.conversion) return { apiVersion: apiVersionOf(reg.group, reg.version), kind: kindOf(reg), ...copy };
  const { apiVersion: _a, kind: _k, ...rest } = reg.conversion.toInternal(copy);
  return { apiVersion: reg.storedAs?.apiVersion ?? 'v1', kind: reg.storedAs?.kind ?? kindOf(reg), ...rest } as KubeObject;
}

/** A stored object as reg's version serves it. */
export function encodeVia(reg: ResourceRegistration, stored: KubeObject): KubeObject {
  const converted = reg.conversion ? reg.conversion.toExternal(stored) : structuredClone(stored);
  const { apiVersion: _a, kind: _k, ...rest } = converted;
  return { kind: kindOf(reg), apiVersion: apiVersionOf(reg.group, reg.version), ...rest } as KubeObject;
}

/** Creates obj through reg (as POST does) and returns it as reg serves it. */
export async function createVia(reg: ResourceRegistration, obj: KubeObject, ns = 'ns'): Promise<KubeObject> {
  const store = reg.main;
  if (!store.create) throw new Error('no create');
  return encodeVia(reg, await store.create(contextFor(reg, 'POST', ns), decodeVia(reg, obj), { dryRun: false }));
}

/** Reads name through reg (as GET does). */
export async function getVia(reg: ResourceRegistration, name: string, ns = 'ns'): Promise<KubeObject> {
  const store = reg.main;
  if (!store.get) throw new Error('no get');
  return encodeVia(reg, await store.get(contextFor(reg, 'GET', ns), name, { resourceVersion: '' }));
}

/** Updates name through reg (or one of its subresources) with a patch-like edit of the object as reg serves it. */
export async function updateVia(
  reg: ResourceRegistration,
  name: string,
  edit: (served: KubeObject) => void,
  opts: { subresource?: string; ns?: string } = {},
): Promise<KubeObject> {
  const target = opts.subresource ? reg.subresources[opts.subresource] : reg.main;
  if (!target?.update) throw new Error('no update');
  const info: UpdatedObjectInfo = {
    updatedObject: async (_ctx, old) => {
      if (!old) throw new Error('missing object');
      const served = encodeVia(reg, old);
      edit(served);
      return decodeVia(reg, served);
    },
  };
  const res = await target.update(contextFor(reg, 'PUT', opts.ns ?? 'ns'), name, info, { dryRun: false });
  return encodeVia(reg, res.object);
}

/** The fields of a served object tests compare: everything but server-set metadata. */
export function withoutServerMeta(obj: KubeObject): KubeObject {
  const { uid: _u, resourceVersion: _r, creationTimestamp: _c, ...meta } = obj.metadata;
  return { ...obj, metadata: meta };
}
