/**
 * Compiling one CRD version's openAPIV3Schema for serving, once per CRD version and generation:
 * the structural model (structural.ts), kube's pruning (prune.ts) and defaulting (defaults.ts),
 * validation with ajv (ajv-compile.ts) reported as kube reports it (errors.ts) and ratcheted on
 * updates (ratcheting.ts), embedded resources (embedded.ts), list-type set/map uniqueness
 * (list-types.ts), the version's CEL rules, and the server-side apply type (ssa-type.ts).
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { invalid, type FieldError } from '../../validation/field-error.js';
import { compileCelValidator } from '../cel/index.js';
import type { CelValidator, JSONSchemaProps, SchemaValidationOptions, VersionSchema } from '../interface.js';
import { compileAjv } from './ajv-compile.js';
import { applyDefaults } from './defaults.js';
import { embeddedResourceErrors } from './embedded.js';
import { schemaErrors } from './errors.js';
import { listSetAndMapErrors } from './list-types.js';
import { pruneObject } from './prune.js';
import { isRatcheted } from './ratcheting.js';
import { customResourceTypeResolver } from './ssa-type.js';
import { buildStructural, type StructuralNode } from './structural.js';

/** Options of compileVersionSchema. */
export interface CompileSchemaOptions {
  /** The resource's kind, for messages. */
  readonly kind?: string;
}

/** The error kube adds instead of running CEL rules over an object that already broke the schema. */
export const celSkippedMessage = 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

const blockingTypes = new Set<FieldError['type']>(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

/** kube's OpenAPI errors (type, maxLength, maxItems, maxProperties, required, enum) keep CEL rules from running. */
function hasBlockingError(errs: readonly FieldError[]): boolean {
  return errs.some((e) => blockingTypes.has(e.type));
}

/**
 * Appends the CEL rules' errors to the schema errors as kube's strategy does: when a blocking
 * schema error is present the rules are not run and one error says so. Mutates and returns errs.
 */
export function appendCelErrors(
  errs: FieldError[],
  cel: CelValidator | undefined,
  obj: KubeObject,
  old: KubeObject | undefined,
  options: SchemaValidationOptions,
): FieldError[] {
  if (!cel) return errs;
  if (hasBlockingError(errs)) errs.push(invalid(undefined, 'null', celSkippedMessage));
  else errs.push(...cel.validate(obj, old, options));
  return errs;
}

function openAPIErrors(
  validateAjv: ReturnType<typeof compileAjv>,
  root: StructuralNode,
  obj: KubeObject,
  old: KubeObject | undefined,
  ratcheting: boolean,
): FieldError[] {
  const found = validateAjv(obj);
  if (!found) return [];
  const mapped = schemaErrors(found, obj, root);
  const kept = old !== undefined && ratcheting ? mapped.filter((e) => !isRatcheted(e.segments, obj, old, root)) : mapped;
  return kept.map((e) => e.error);
}

/**
 * Compiles schema once for a CRD version (undefined schema: everything preserved, nothing
 * checked). Throws only for a schema ajv cannot compile, which CRD validation refuses first.
 */
export function compileVersionSchema(schema: JSONSchemaProps | undefined, opts: CompileSchemaOptions = {}): VersionSchema {
  const root = buildStructural(schema);
  const validateAjv = compileAjv(schema ?? {});
  const cel = schema ? compileCelValidator(schema) : undefined;
  const typeResolver = customResourceTypeResolver(root, opts.kind);
  return {
    schema: schema ?? {},
    prune: (obj) => pruneObject(obj as unknown as Record<string, unknown>, root),
    applyDefaults: (obj) => applyDefaults(obj, root),
    validate(obj: KubeObject, old: KubeObject | undefined, options: SchemaValidationOptions): FieldError[] {
      const errs = openAPIErrors(validateAjv, root, obj, old, options.ratcheting);
      embeddedResourceErrors(obj, root, undefined, errs);
      // kube checks list uniqueness on updates only when the old object passed it (ratcheting by design).
      if (old === undefined || listSetAndMapErrors(old, root, undefined).length === 0) listSetAndMapErrors(obj, root, undefined, errs);
      return appendCelErrors(errs, cel, obj, old, options);
    },
    typeResolver,
  };
}
