/**
 * FlowSchema rules (kube's pkg/registry/flowcontrol/flowschema): a priority level reference, a
 * matching precedence between 1 and 10000 (1 only for "exempt"), a known distinguisher method,
 * rules with subjects; generation tracking; status written only through flowschemas/status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Subdomain } from '../../../validation/label-values.js';
import { arrayAt, asObject, numberAt, objectAt, stringAt } from '../../core/shared/json-value.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

const maxMatchingPrecedence = 10000;
const distinguisherMethods = ['ByNamespace', 'ByUser'];
const subjectKinds = ['Group', 'ServiceAccount', 'User'];

/** ValidateFlowSchemaSpec without metadata. Never mutates. */
export function validateFlowSchema(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs: FieldError[] = [];
  const precedence = numberAt(spec, 'matchingPrecedence') ?? 0;
  if (precedence <= 0) errs.push(invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
  if (precedence > maxMatchingPrecedence) errs.push(invalid('spec.matchingPrecedence', precedence, `must not be greater than ${maxMatchingPrecedence}`));
  if (precedence === 1 && obj.metadata.name !== 'exempt') errs.push(invalid('spec.matchingPrecedence', precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  const method = objectAt(spec, 'distinguisherMethod');
  if (method && !distinguisherMethods.includes(stringAt(method, 'type'))) errs.push(notSupported('spec.distinguisherMethod.type', method, distinguisherMethods));
  const plName = stringAt(objectAt(spec, 'priorityLevelConfiguration'), 'name');
  if (!plName) errs.push(required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  else errs.push(...isDNS1123Subdomain(plName).map((m) => invalid('spec.priorityLevelConfiguration.name', plName, m)));
  arrayAt(spec, 'rules').forEach((raw, i) => {
    const rule = asObject(raw) ?? {};
    const path = indexPath('spec.rules', i);
    const subjects = arrayAt(rule, 'subjects');
    if (subjects.length === 0) errs.push(required(`${path}.subjects`, 'subjects must contain at least one value'));
    subjects.forEach((s, j) => {
      const kind = stringAt(asObject(s), 'kind');
      if (!subjectKinds.includes(kind)) errs.push(notSupported(`${indexPath(`${path}.subjects`, j)}.kind`, kind, subjectKinds));
    });
    if (arrayAt(rule, 'resourceRules').length === 0 && arrayAt(rule, 'nonResourceRules').length === 0) {
      errs.push(required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
    }
  });
  return errs;
}

/** The FlowSchema strategy. */
export const flowSchemaStrategy = defineStrategy({
  namespaced: false,
  tracksGeneration: true,
  hasStatus: true,
  validate: validateFlowSchema,
});

/** flowcontrol/v1 SetDefaults_FlowSchemaSpec: matchingPrecedence 1000. Mutates obj. */
export function defaultFlowSchema(obj: KubeObject): void {
  if (obj.spec === undefined || obj.spec === null) obj.spec = {};
  const spec = asObject(obj.spec);
  if (spec && (spec.matchingPrecedence === undefined || spec.matchingPrecedence === null || spec.matchingPrecedence === 0)) spec.matchingPrecedence = 1000;
}
