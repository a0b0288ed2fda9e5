/**
 * Admission's audit annotations (kube's admission.Attributes.AddAnnotation): a plugin annotates
 * the request's audit event with a key of the form "<DNS subdomain prefix>/<name>" (a qualified
 * name with a prefix, e.g. "podsecurity.admission.k8s.io/enforce-policy"), at level Metadata and
 * above. A malformed key, or a key already set to another value, is refused with kube's error and
 * records nothing; the plugin decides whether that matters (kube's plugins log it and go on).
 */
import type { RequestContext } from '../request/context.js';
import { isQualifiedName } from '../validation/label-values.js';
import type { AddAnnotation } from './interface.js';

/** kube's checkKeyFormat: the error for a key that is not "<prefix>/<name>" (undefined when valid). */
export function annotationKeyError(key: string): Error | undefined {
  if (key.split('/').length !== 2) {
    return new Error("annotation key has invalid format, the right format is a DNS subdomain prefix and '/' and key name. (e.g. 'podsecuritypolicy.admission.k8s.io/admit-policy')");
  }
  const msgs = isQualifiedName(key);
  if (msgs.length > 0) {
    return new Error(`annotation key has invalid format ${msgs.join(',')}. A qualified name like 'podsecuritypolicy.admission.k8s.io/admit-policy' is required.`);
  }
  return undefined;
}

// An unaudited request keeps nothing: checking the key is all there is to do, with no state.
const checkOnly: AddAnnotation = (key) => annotationKeyError(key);

/** The addAnnotation of admission attributes for ctx's request: into ctx.audit when it is audited. */
export function annotatorFor(ctx: RequestContext): AddAnnotation {
  const audit = ctx.audit;
  if (!audit) return checkOnly;
  const set = new Map<string, string>();
  return (key, value) => {
    const invalid = annotationKeyError(key);
    if (invalid) return invalid;
    const old = set.get(key);
    if (old !== undefined && old !== value) {
      return new Error(`admission annotations are not allowd to be overwritten, key:${JSON.stringify(key)}, old value: {Metadata ${old}}, new value: {Metadata ${value}}`);
    }
    set.set(key, value);
    audit.annotate(key, value);
    return undefined;
  };
}
