/**
 * APIService rules (kube-aggregator's registry): the name is <version>.<group>; the group is a DNS
 * subdomain (empty only for the legacy v1); priorities in range; a local APIService has no CA
 * bundle or insecureSkipTLSVerify and is Available at once, a remote one names a service; status
 * written only through apiservices/status (labels, annotations, finalizers and owners kept).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../../validation/label-values.js';
import { asObject, numberAt, objectAt, stringAt } from '../../core/shared/json-value.js';
import { isValidPortNum } from '../../core/shared/ports.js';
import { metaTime } from '../../generic/object-meta.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

/** ValidateAPIService without the generic metadata. Never mutates. */
export function validateAPIService(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const group = stringAt(spec, 'group');
  const version = stringAt(spec, 'version');
  const errs: FieldError[] = [];
  const requiredName = `${version}.${group}`;
  const name = obj.metadata.name ?? '';
  if (name && name !== requiredName) errs.push(invalid('metadata.name', name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(requiredName)}`));
  if (!group && version !== 'v1') errs.push(required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (group) errs.push(...isDNS1123Subdomain(group).map((m) => invalid('spec.group', group, m)));
  errs.push(...isDNS1035Label(version).map((m) => invalid('spec.version', version, m)));
  const gpm = numberAt(spec, 'groupPriorityMinimum') ?? 0;
  if (gpm <= 0 || gpm > 20000) errs.push(invalid('spec.groupPriorityMinimum', gpm, 'must be positive and less than 20000'));
  const vp = numberAt(spec, 'versionPriority') ?? 0;
  if (vp <= 0 || vp > 1000) errs.push(invalid('spec.versionPriority', vp, 'must be positive and less than 1000'));
  const caBundle = stringAt(spec, 'caBundle');
  const insecure = spec?.insecureSkipTLSVerify === true;
  const service = objectAt(spec, 'service');
  if (!service) {
    if (caBundle) errs.push(invalid('spec.caBundle', `${Buffer.from(caBundle, 'base64').length} bytes`, 'local APIServices may not have a caBundle'));
    if (insecure) errs.push(invalid('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'));
    return errs;
  }
  if (!stringAt(service, 'namespace')) errs.push(required('spec.service.namespace', ''));
  if (!stringAt(service, 'name')) errs.push(required('spec.service.name', ''));
  const port = numberAt(service, 'port') ?? 0;
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(invalid('spec.service.port', port, `port is not valid: ${portErrs.join(', ')}`));
  if (insecure && caBundle) errs.push(invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
  return errs;
}

/** The APIService strategy: a local APIService (no service) is Available from the start; updates name their resourceVersion. */
export const apiServiceStrategy = defineStrategy({
  namespaced: false,
  allowUnconditionalUpdate: false,
  hasStatus: true,
  initialStatus: (obj) =>
    objectAt(asObject(obj.spec), 'service')
      ? {}
      : { conditions: [{ type: 'Available', status: 'True', lastTransitionTime: metaTime(), reason: 'Local', message: 'Local APIServices are always available' }] },
  nameValidation: 'path-segment',
  validate: validateAPIService,
});

/** apiregistration/v1 SetDefaults_ServiceReference: port 443. Mutates obj. */
export function defaultAPIService(obj: KubeObject): void {
  const service = objectAt(asObject(obj.spec), 'service');
  if (service && (service.port === undefined || service.port === null)) service.port = 443;
}
