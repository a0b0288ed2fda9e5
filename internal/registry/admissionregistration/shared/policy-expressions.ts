/**
 * The CEL expressions of a ValidatingAdmissionPolicy compiled at create and update, as kube's
 * validation compiles them: each one that does not compile (syntax, an undeclared reference, an
 * unknown function) is an Invalid error on its field, "compilation failed: ERROR: <input>:...".
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { CelCompileError, compileExpression } from '../../../cel/expression.js';
import { admissionPolicyMessageVariables, admissionPolicyVariables } from '../../../cel/variables.js';
import { childPath, indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { arrayAt, asObject, stringAt } from '../../core/shared/json-value.js';

// kube's order in its validation message.
const supportedReasons = ['Unauthorized', 'Forbidden', 'Invalid', 'RequestEntityTooLarge'];

function compileError(expression: string, path: string, variables: readonly string[]): FieldError[] {
  try {
    compileExpression(expression, { variables });
    return [];
  } catch (err) {
    if (err instanceof CelCompileError) return [invalid(path, expression, `compilation failed: ${err.message}`)];
    throw err;
  }
}

/** Errors of every expression of a ValidatingAdmissionPolicy's spec. Never mutates. */
export function validatePolicyExpressions(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs: FieldError[] = [];
  arrayAt(spec, 'validations').forEach((raw, i) => {
    const v = asObject(raw);
    const path = indexPath('spec.validations', i);
    const expression = stringAt(v, 'expression');
    if (expression) errs.push(...compileError(expression, childPath(path, 'expression'), admissionPolicyVariables));
    const reason = v?.reason;
    if (reason !== undefined && reason !== null && !supportedReasons.includes(String(reason))) errs.push(notSupported(childPath(path, 'reason'), reason, supportedReasons));
    const message = stringAt(v, 'messageExpression');
    if (message) errs.push(...compileError(message, childPath(path, 'messageExpression'), admissionPolicyMessageVariables));
  });
  arrayAt(spec, 'auditAnnotations').forEach((raw, i) => {
    const a = asObject(raw);
    const path = indexPath('spec.auditAnnotations', i);
    if (!stringAt(a, 'key')) errs.push(required(childPath(path, 'key'), ''));
    const value = stringAt(a, 'valueExpression');
    if (!value) errs.push(required(childPath(path, 'valueExpression'), ''));
    else errs.push(...compileError(value, childPath(path, 'valueExpression'), admissionPolicyVariables));
  });
  arrayAt(spec, 'matchConditions').forEach((raw, i) => {
    const c = asObject(raw);
    const path = indexPath('spec.matchConditions', i);
    const expression = stringAt(c, 'expression');
    if (!expression) errs.push(required(childPath(path, 'expression'), ''));
    else errs.push(...compileError(expression, childPath(path, 'expression'), admissionPolicyVariables));
  });
  arrayAt(spec, 'variables').forEach((raw, i) => {
    const expression = stringAt(asObject(raw), 'expression');
    if (expression) errs.push(...compileError(expression, childPath(indexPath('spec.variables', i), 'expression'), admissionPolicyVariables));
  });
  return errs;
}
