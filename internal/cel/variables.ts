/**
 * The variables Kubernetes declares for each kind of admission expression, so the registry's
 * validation and the admission plugins compile against the same declarations.
 */

/** ValidatingAdmissionPolicy validations, auditAnnotations, matchConditions and variables. */
export const admissionPolicyVariables: readonly string[] = ['object', 'oldObject', 'request', 'params', 'namespaceObject', 'authorizer', 'variables'];

/** ValidatingAdmissionPolicy messageExpression: everything but the authorizer. */
export const admissionPolicyMessageVariables: readonly string[] = ['object', 'oldObject', 'request', 'params', 'namespaceObject', 'variables'];
