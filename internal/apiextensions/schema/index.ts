/**
 * Compiling one CRD version's openAPIV3Schema for serving. PLACEHOLDER (scaffold): the cr-schema
 * work replaces this file with the real pruner, defaulter and ajv-based validator.
 */
import { deducedTypeResolver } from '../../fieldmanager/managed-fields.js';
import type { JSONSchemaProps, VersionSchema } from '../interface.js';

/** Options of compileVersionSchema. */
export interface CompileSchemaOptions {
  /** The resource's kind, for messages. */
  readonly kind?: string;
}

/** Compiles schema once for a CRD version. */
export function compileVersionSchema(schema: JSONSchemaProps, _opts: CompileSchemaOptions = {}): VersionSchema {
  return {
    schema,
    prune: () => [],
    applyDefaults: () => undefined,
    validate: () => [],
    typeResolver: deducedTypeResolver(),
  };
}
