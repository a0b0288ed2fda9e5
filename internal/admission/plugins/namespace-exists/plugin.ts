/**
 * NamespaceExists (kube's plugin of that name): a create, update or delete in a namespace that does
 * not exist is refused with 404 `namespaces "x" not found`. The shared informer answers first; a
 * namespace it lacks is read from storage, as kube's lister-then-client lookup does.
 */
import { newNotFound } from '../../../apierrors/factories.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import type { NamespaceLookup } from '../namespace-lifecycle/plugin.js';

/** The NamespaceExists plugin. */
export class NamespaceExists implements AdmissionPlugin {
  readonly name = 'NamespaceExists';

  /** lookup(name, false) may answer from the cache; lookup(name, true) reads storage. */
  constructor(private readonly lookup: NamespaceLookup) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE' || operation === 'DELETE';
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    if (attrs.namespace === '' || (attrs.group === '' && attrs.kind === 'Namespace')) return;
    if (await this.lookup(attrs.namespace, false)) return;
    if (await this.lookup(attrs.namespace, true)) return;
    throw newNotFound({ group: '', resource: 'namespaces' }, attrs.namespace);
  }
}
