/**
 * The APIResponseCompression gate turned off: resource responses are never gzipped, whatever the
 * client's Accept-Encoding (kube's response writer compresses only with the gate on). With the
 * gate on (kube 1.33's default) there is no filter at all.
 */
import { disableResponseCompression } from '../endpoints/negotiation/writer.js';
import type { Filter } from './interface.js';

/** The filter for the gate's value; undefined when it is on. */
export function withoutResponseCompression(compression: boolean): Filter | undefined {
  if (compression) return undefined;
  return (req) => disableResponseCompression(req);
}
