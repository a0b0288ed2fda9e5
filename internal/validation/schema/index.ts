/**
 * Schema checks of built-in kinds against the Kubernetes 1.33 OpenAPI (api/gen/schemas.ts), as
 * kube-apiserver's typed decoding and validation behave. See README.md beside this file for what is
 * exact and what is approximate, and decode.ts / validate.ts for the rules.
 */
export type { DecodeCheckResult, GVK } from './types.js';
export { checkDecode } from './decode.js';
export { checkFromUnstructured, type UnstructuredCheckResult } from './unstructured.js';
export { validateSchema } from './validate.js';
export { hasSchema } from './schema-index.js';
export { strictDecodingErrorMessage, unknownFieldMessage, unknownFieldMessages } from './unknown-fields.js';
