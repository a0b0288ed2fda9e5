/**
 * Strategy None (kube's nopConverter): only apiVersion changes; the rest of each object is shared
 * with the input, so callers treat both as immutable.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { VersionConverter } from './interface.js';

/** Sets each object's apiVersion to the target. */
export function nopConvert(objects: readonly KubeObject[], toApiVersion: string): KubeObject[] {
  return objects.map((o) => (o.apiVersion === toApiVersion ? o : { ...o, apiVersion: toApiVersion }));
}

/** The None strategy as a VersionConverter. */
export const nopConverter: VersionConverter = {
  convert: (objects, toApiVersion) => Promise.resolve(nopConvert(objects, toApiVersion)),
};
