/**
 * A binding's params (kube's CollectParams): none when the policy has no paramKind or the binding
 * no paramRef; otherwise the named object or those matching the selector, in paramRef.namespace,
 * else the request's namespace for a namespaced kind, read from the kind's shared informer.
 * No params with parameterNotFoundAction Deny is a configuration error.
 */
import { generatedResources } from '../../../../api/gen/resources.js';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { SharedInformers } from '../../../controllers/shared-informers.js';
import { labelSelectorAsSelector, type LabelSelectorObject } from '../../../selectors/label-selector-object.js';

/** Where objects of a kind are kept. */
export interface ParamResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly namespaced: boolean;
}

/** The resource of apiVersion/kind: a built-in, else a CustomResourceDefinition's; undefined when unknown. */
export function resolveParamKind(apiVersion: string, kind: string, informers: SharedInformers): ParamResource | undefined {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const builtin = generatedResources.find((r) => r.group === group && r.version === version && r.kind === kind);
  if (builtin) return { group, version, resource: builtin.resource, namespaced: builtin.namespaced };
  for (const crd of informers.tryGet('apiextensions.k8s.io', 'customresourcedefinitions')?.list() ?? []) {
    const spec = crd.spec as { group?: string; scope?: string; names?: { kind?: string; plural?: string }; versions?: { name?: string }[] } | undefined;
    if (spec?.group === group && spec.names?.kind === kind && spec.versions?.some((v) => v.name === version)) {
      return { group, version, resource: spec.names.plural ?? '', namespaced: spec.scope === 'Namespaced' };
    }
  }
  return undefined;
}

/** A binding's paramRef. */
export interface ParamRef {
  readonly name?: string;
  readonly namespace?: string;
  readonly selector?: LabelSelectorObject;
  readonly parameterNotFoundAction?: string;
}

/** The params to evaluate with ([null] when the policy takes none); throws Error with kube's text on a configuration error. */
export async function collectParams(
  kind: ParamResource | undefined,
  paramRef: ParamRef | undefined,
  requestNamespace: string,
  informers: SharedInformers,
): Promise<(KubeObject | null)[]> {
  if (!kind || !paramRef) return [null];
  if (paramRef.namespace && !kind.namespaced) throw new Error('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
  let namespace = '';
  if (kind.namespaced) {
    namespace = paramRef.namespace || requestNamespace;
    if (!namespace) throw new Error('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
  }
  const informer = informers.get(kind.group, kind.resource);
  if (!informer.hasSynced()) {
    await Promise.race([informer.synced, new Promise((r) => setTimeout(r, 1000).unref())]);
    if (!informer.hasSynced()) throw new Error(`paramKind kind \`${kind.group ? `${kind.group}/` : ''}${kind.version}, Kind=${kind.resource}\` not yet synced to use for admission`);
  }
  let params: KubeObject[];
  if (paramRef.name) {
    const obj = informer.get(namespace ? `${namespace}/${paramRef.name}` : paramRef.name);
    params = obj ? [obj] : [];
  } else if (paramRef.selector) {
    const selector = labelSelectorAsSelector(paramRef.selector);
    params = [];
    for (const obj of informer.list()) {
      if ((obj.metadata.namespace ?? '') !== namespace) continue;
      if (selector.matches((obj.metadata.labels as Record<string, string> | undefined) ?? {})) params.push(obj);
    }
  } else {
    throw new Error('one of name or selector must be provided');
  }
  if (params.length === 0 && paramRef.parameterNotFoundAction === 'Deny') {
    throw new Error('no params found for policy binding with `Deny` parameterNotFoundAction');
  }
  return params;
}
