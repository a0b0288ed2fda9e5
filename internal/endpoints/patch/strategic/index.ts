/**
 * Strategic merge patch (`application/strategic-merge-patch+json`), as
 * k8s.io/apimachinery/pkg/util/strategicpatch v0.33 applies and creates it for the built-in kinds.
 */
export { createThreeWayMergePatch, createTwoWayMergePatch, strategicMergePatch } from './strategic-merge.js';
export { patchSchemaFor } from './schema.js';
export { structPatchSchema } from './struct-schema.js';
export { patchMetaFromOpenAPI, type OpenAPISchema, type PatchMetaDocument } from './openapi-meta.js';
export { StrategicPatchError, type StrategicPatchErrorKind } from './errors.js';
export { statusErrorForPatch } from './status.js';
export { createThreeWayMergePatchJson, createTwoWayMergePatchJson, marshalGoJson, parseJsonLossless, strategicMergePatchJson } from './json-document.js';
export type { GroupVersionKind, JsonMap, PatchLookup, PatchMeta, PatchMetaDefinition, PatchSchema } from './types.js';
