/**
 * The namespace lookups of PodNodeSelector and PodTolerationRestriction: the shared informer's
 * copy (after its first list, or "not yet ready to handle request" after 10 s), else storage.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newInternalError, newNotFound } from '../../../apierrors/factories.js';
import { StatusError } from '../../../apierrors/status-error.js';
import type { Informer } from '../../../controllers/informer.js';
import type { AdmissionAttributes } from '../../interface.js';
import { admissionForbidden } from './forbidden.js';
import { waitForReady, type LiveGet } from './lookup.js';

/** A request's namespace, or the error kube's plugins answer with. */
export async function namespaceOf(attrs: AdmissionAttributes, namespaces: Informer, liveGet: LiveGet): Promise<KubeObject> {
  if (!(await waitForReady(namespaces))) throw admissionForbidden(attrs, 'not yet ready to handle request');
  const hit = namespaces.get(attrs.namespace);
  if (hit) return hit;
  let live: KubeObject | undefined;
  try {
    live = await liveGet('', attrs.namespace);
  } catch (err) {
    throw newInternalError((err as Error).message);
  }
  if (!live) throw newNotFound({ group: '', resource: 'namespaces' }, attrs.namespace);
  return live;
}

/** The answer kube gives for a plain (non-status) error out of admission: 500, no reason. */
export function plainAdmissionError(message: string): StatusError {
  return new StatusError(500, '', message);
}
