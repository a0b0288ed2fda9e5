/**
 * The identity of an object being created, known while it is prepared. kube's store fills in the
 * uid and a generated name before PrepareForCreate, so a Job can put its uid into the selector
 * it generates; Capstan's generic beforeCreate assigns them afterwards. A strategy that needs
 * them takes a provisional uid (and generates the name) here, checks against it, and makes it
 * the object's uid again in canonicalize, which runs last.
 */
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../api/meta/types.js';
import { generateName } from '../generic/object-meta.js';

const provisional = new WeakMap<KubeObject, string>();

/** Assigns obj a provisional uid (and its generated name); call from prepareForCreate. Mutates obj. */
export function claimIdentity(obj: KubeObject): { name: string; uid: string } {
  const uid = randomUUID();
  provisional.set(obj, uid);
  if (!obj.metadata.name && obj.metadata.generateName) obj.metadata.name = generateName(obj.metadata.generateName);
  return { name: obj.metadata.name ?? '', uid };
}

/** The uid obj will be stored with: the provisional one during a create, else its own. */
export function effectiveUid(obj: KubeObject): string {
  return provisional.get(obj) ?? obj.metadata.uid ?? '';
}

/** Makes the provisional uid obj's uid; call from canonicalize. Mutates obj. */
export function settleIdentity(obj: KubeObject): void {
  const uid = provisional.get(obj);
  if (uid === undefined) return;
  obj.metadata.uid = uid;
  provisional.delete(obj);
}
