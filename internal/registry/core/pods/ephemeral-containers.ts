/**
 * pods/ephemeralcontainers (kube's podEphemeralContainersStrategy): a write through this
 * subresource changes spec.ephemeralContainers and nothing else; existing ephemeral containers
 * may be neither removed nor changed, and static (mirror) pods take none.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { forbidden, goQuote, type FieldError } from '../../../validation/field-error.js';
import type { StatusStrategy } from '../../generic/strategy.js';
import { stableStringify } from '../../generic/object-meta.js';
import { arrayAt, asObject, ensureObject, stringAt, type JsonObject } from '../shared/json-value.js';
import { validatePodSpec } from '../shared/pod-spec.js';
import { semanticEqual } from '../shared/semantic-equal.js';

/** The annotation that marks a mirror (static) pod. */
export const mirrorPodAnnotation = 'kubernetes.io/config.mirror';

/** dropNonEphemeralContainerUpdates: obj becomes old with only its identity and ephemeral containers taken from the request. */
function keepOnlyEphemeralContainers(obj: KubeObject, old: KubeObject): void {
  const ephemeral = asObject(obj.spec)?.ephemeralContainers;
  const { name, namespace, resourceVersion, uid } = obj.metadata;
  for (const key of Object.keys(obj)) if (key !== 'apiVersion' && key !== 'kind') delete obj[key];
  for (const [key, value] of Object.entries(old)) if (key !== 'apiVersion' && key !== 'kind') obj[key] = structuredClone(value);
  const meta = obj.metadata as Record<string, unknown>;
  for (const [k, v] of Object.entries({ name, namespace, resourceVersion, uid })) {
    if (v === undefined) delete meta[k];
    else meta[k] = v;
  }
  const spec = ensureObject(obj as JsonObject, 'spec');
  if (ephemeral === undefined) delete spec.ephemeralContainers;
  else spec.ephemeralContainers = structuredClone(ephemeral);
}

/** A short rendering of what changed in one ephemeral container, in place of Go's cmp.Diff. */
function containerDiff(prev: JsonObject, next: JsonObject): string {
  const keys = [...new Set([...Object.keys(prev), ...Object.keys(next)])].sort();
  const lines = ['  core.EphemeralContainer{'];
  for (const k of keys) {
    if (semanticEqual(prev[k], next[k])) continue;
    if (prev[k] !== undefined) lines.push(`- \t${k}: ${stableStringify(prev[k])},`);
    if (next[k] !== undefined) lines.push(`+ \t${k}: ${stableStringify(next[k])},`);
  }
  lines.push('  }');
  return lines.join('\n');
}

/** ValidatePodEphemeralContainersUpdate without metadata: the whole spec, then the change rules. */
export function validateEphemeralContainersUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = validatePodSpec(asObject(obj.spec), 'spec', { isPod: true });
  if (Object.hasOwn(old.metadata.annotations ?? {}, mirrorPodAnnotation)) return [forbidden('', 'static pods do not support ephemeral containers')];
  const path = 'spec.ephemeralContainers';
  const byName = new Map<string, JsonObject>();
  for (const c of arrayAt(asObject(obj.spec), 'ephemeralContainers')) byName.set(stringAt(asObject(c), 'name'), asObject(c) ?? {});
  for (const raw of arrayAt(asObject(old.spec), 'ephemeralContainers')) {
    const prev = asObject(raw) ?? {};
    const name = stringAt(prev, 'name');
    const next = byName.get(name);
    if (!next) errs.push(forbidden(path, `existing ephemeral containers ${goQuote(name)} may not be removed\n`));
    else if (!semanticEqual(prev, next)) {
      errs.push(forbidden(path, `existing ephemeral containers ${goQuote(name)} may not be changed\n${containerDiff(prev, next)}`));
    }
  }
  return errs;
}

/** The pods/ephemeralcontainers rules, in the shape the generic subresource store takes. */
export const podEphemeralContainersStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    keepOnlyEphemeralContainers(obj, old);
  },
  validateUpdate(_ctx, obj, old) {
    return validateEphemeralContainersUpdate(obj, old);
  },
};
