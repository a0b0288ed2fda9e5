/**
 * NamespaceAutoProvision (kube's plugin of that name): a create in a namespace that does not exist
 * first creates the namespace. Dry runs create nothing. A failure to create it (other than someone
 * else creating it first) refuses the request with 403, as kube does.
 */
import { hasReason } from '../../../apierrors/status-error.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';

/** Reads a namespace from the cache; creates one in storage. */
export interface NamespaceProvisioner {
  exists(name: string): Promise<boolean>;
  /** Creates the namespace; throws the store's StatusError (AlreadyExists when it is there). */
  create(name: string): Promise<void>;
}

/** The NamespaceAutoProvision plugin (mutating phase, like kube's). */
export class NamespaceAutoProvision implements AdmissionPlugin {
  readonly name = 'NamespaceAutoProvision';

  constructor(private readonly namespaces: NamespaceProvisioner) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE';
  }

  async admit(attrs: AdmissionAttributes): Promise<void> {
    if (attrs.dryRun || attrs.namespace === '' || (attrs.group === '' && attrs.kind === 'Namespace')) return;
    if (await this.namespaces.exists(attrs.namespace)) return;
    try {
      await this.namespaces.create(attrs.namespace);
    } catch (err) {
      if (hasReason(err, 'AlreadyExists')) return;
      throw admissionForbidden(attrs, err as Error);
    }
  }
}
