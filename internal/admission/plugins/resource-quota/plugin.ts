/**
 * ResourceQuota (kube's admission plugin of that name; validating, last in the chain): every
 * create or update of a namespaced object, other than subresources (except a pod's resize) and
 * namespaces themselves, is charged against the quotas of its namespace and refused with 403 when it
 * would exceed one.
 */
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import type { QuotaAdmissionEvaluator } from './quota-evaluator.js';

/** The ResourceQuota plugin. */
export class ResourceQuotaPlugin implements AdmissionPlugin {
  readonly name = 'ResourceQuota';

  constructor(private readonly evaluator: QuotaAdmissionEvaluator) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE';
  }

  async validate(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (attrs.namespace === '') return;
    if (attrs.subresource !== '' && !(attrs.subresource === 'resize' && attrs.resource === 'pods' && attrs.group === '')) return;
    if (attrs.operation === 'CREATE' && attrs.group === '' && attrs.kind === 'Namespace') return;
    await this.evaluator.evaluate(attrs);
  }
}
