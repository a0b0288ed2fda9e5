/**
 * AlwaysPullImages (kube's admission plugin of that name): every container, init container and
 * ephemeral container of a pod created, or updated with an image it did not have, gets
 * imagePullPolicy Always (admit), and such a pod with another policy is refused, 403 (validate),
 * so a node pulls, and so checks the pull credentials of, every image it runs.
 */
import { newForbidden } from '../../../apierrors/factories.js';
import { StatusError } from '../../../apierrors/status-error.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { admissionObjectName, aggregateMessage } from '../pod-shared/forbidden.js';
import { allContainers, isPodRequest, type Pod } from '../pod-shared/pod-types.js';

/** The AlwaysPullImages plugin. */
export class AlwaysPullImages implements AdmissionPlugin {
  readonly name = 'AlwaysPullImages';

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE';
  }

  async admit(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (shouldIgnore(attrs)) return;
    const spec = (attrs.object as Pod).spec;
    if (!spec) return;
    for (const [c] of allContainers(spec)) c.imagePullPolicy = 'Always';
  }

  async validate(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (shouldIgnore(attrs)) return;
    const spec = (attrs.object as Pod).spec;
    if (!spec) return;
    const errs: string[] = [];
    const name = admissionObjectName(attrs);
    for (const [c, path] of allContainers(spec)) {
      if (c.imagePullPolicy !== 'Always') {
        errs.push(newForbidden({ group: '', resource: 'pods' }, name, `${path}.imagePullPolicy: Unsupported value: "${c.imagePullPolicy ?? ''}": supported values: "Always"`).message);
      }
    }
    // kube aggregates one Forbidden per container; answered as one 403 carrying the aggregate's text.
    if (errs.length > 0) throw new StatusError(403, 'Forbidden', aggregateMessage(errs), { name, kind: 'pods' });
  }
}

/** Not a pod, a subresource, or an update that brings no new image. */
function shouldIgnore(attrs: AdmissionAttributes): boolean {
  if (!isPodRequest(attrs.group, attrs.resource, attrs.subresource) || !attrs.object) return true;
  if (attrs.operation !== 'UPDATE') return false;
  const old = (attrs.oldObject as Pod | undefined)?.spec;
  const spec = (attrs.object as Pod).spec;
  if (!old || !spec) return false;
  const oldImages = new Set<string>();
  for (const [c] of allContainers(old)) oldImages.add(c.image ?? '');
  for (const [c] of allContainers(spec)) if (!oldImages.has(c.image ?? '')) return false;
  return true;
}
