/**
 * Managed fields on every write: each create, update and patch records what its field manager
 * (the fieldManager parameter, else the User-Agent's program name) changed, and server-side apply
 * merges a configuration by ownership. Objects here are in the endpoint's version, as kube's
 * field manager sees them.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import {
  applyObject,
  managerOrUserAgent,
  typeResolverForBuiltins,
  updateManagedFields,
  type TypeResolver,
} from '../../fieldmanager/managed-fields.js';
import type { FieldManagerOptions } from '../../fieldmanager/interface.js';
import type { HandlerInput } from './common.js';
import type { ParsedWriteOptions } from './write-options.js';

let resolver: TypeResolver | undefined;

/** The types of the endpoint's kind: a custom resource's from its schema, else the built-in ones. */
function builtins(h: HandlerInput): TypeResolver {
  if (h.scope.custom) return h.scope.custom.typeResolver;
  resolver ??= typeResolverForBuiltins();
  return resolver;
}

function gvkOf(h: HandlerInput): { group: string; version: string; kind: string } {
  const i = h.scope.apiVersion.indexOf('/');
  return { group: i < 0 ? '' : h.scope.apiVersion.slice(0, i), version: h.scope.apiVersion.slice(i + 1), kind: h.scope.kind };
}

/** Whether writes to this endpoint carry managed fields (the Scale view does not). */
function tracked(h: HandlerInput): boolean {
  return h.scope.subresource !== 'scale';
}

/**
 * kube's strategy ResetFields: what no manager owns through this endpoint (a main resource with a
 * status subresource owns no status; the status subresource owns no spec or metadata), plus the
 * defaulting apply runs on what it produced.
 */
function optionsFor(h: HandlerInput): FieldManagerOptions {
  const resetFields =
    h.scope.subresource === 'status' ? [['spec'], ['metadata']] : h.scope.subresource === '' && h.scope.hasStatusSubresource ? [['status']] : undefined;
  const defaulter = h.scope.defaulter;
  return {
    ...(resetFields ? { resetFields } : {}),
    ...(defaulter
      ? {
          default: (o: KubeObject) => {
            defaulter(o);
            return o;
          },
        }
      : {}),
  };
}

/** The field manager of a write. */
export function managerOf(h: HandlerInput, opts: ParsedWriteOptions): string {
  return managerOrUserAgent(opts.fieldManager, h.ctx.userAgent);
}

/** Records a non-apply write of obj over old (undefined for a create); returns obj with managedFields. */
export function trackUpdate(h: HandlerInput, opts: ParsedWriteOptions, old: KubeObject | undefined, obj: KubeObject): KubeObject {
  if (!tracked(h)) return obj;
  return updateManagedFields(builtins(h), gvkOf(h), old, obj, managerOf(h, opts), h.scope.subresource, new Date(), optionsFor(h));
}

/** Server-side apply of a configuration over live (undefined when it does not exist yet). */
export function applyConfiguration(h: HandlerInput, opts: ParsedWriteOptions, live: KubeObject | undefined, applied: KubeObject): KubeObject {
  return applyObject(builtins(h), gvkOf(h), live, applied, managerOf(h, opts), opts.force === true, h.scope.subresource, new Date(), optionsFor(h));
}
