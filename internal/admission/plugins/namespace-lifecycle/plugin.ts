/**
 * NamespaceLifecycle (kube's admission plugin of that name): nothing is created in a namespace
 * that does not exist (404) or is being terminated (403, cause NamespaceTerminating), and the
 * immortal namespaces default, kube-system and kube-public cannot be deleted.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newForbidden, newNotFound } from '../../../apierrors/factories.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';

/** Namespaces that can never be deleted. */
export const immortalNamespaces: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);

/** Reads a namespace by name; undefined when it does not exist. */
export type NamespaceLookup = (name: string) => Promise<KubeObject | undefined>;

/** Review resources that kube lets through even into terminating namespaces. */
const accessReviewResources = new Set(['localsubjectaccessreviews', 'subjectaccessreviews', 'selfsubjectaccessreviews', 'tokenreviews']);

/** The NamespaceLifecycle plugin. */
export class NamespaceLifecycle implements AdmissionPlugin {
  readonly name = 'NamespaceLifecycle';

  constructor(private readonly lookup: NamespaceLookup) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'DELETE';
  }

  async validate(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    const isNamespace = attrs.group === '' && attrs.resource === 'namespaces';
    if (attrs.operation === 'DELETE') {
      if (isNamespace && attrs.subresource === '' && immortalNamespaces.has(attrs.name)) {
        throw newForbidden({ group: '', resource: 'namespaces' }, attrs.name, 'this namespace may not be deleted');
      }
      return;
    }
    if (isNamespace || attrs.namespace === '' || accessReviewResources.has(attrs.resource)) return;
    const ns = await this.lookup(attrs.namespace);
    if (!ns) throw newNotFound({ group: '', resource: 'namespaces' }, attrs.namespace);
    const phase = (ns.status as { phase?: string } | undefined)?.phase;
    if (ns.metadata.deletionTimestamp || phase === 'Terminating') {
      const err = newForbidden(
        { group: attrs.group, resource: attrs.resource },
        attrs.name,
        `unable to create new content in namespace ${attrs.namespace} because it is being terminated`,
      );
      const details = err.status.details ?? {};
      details.causes = [
        ...(details.causes ?? []),
        { reason: 'NamespaceTerminating', message: `namespace ${attrs.namespace} is being terminated`, field: 'metadata.namespace' },
      ];
      err.status.details = details;
      throw err;
    }
  }
}
