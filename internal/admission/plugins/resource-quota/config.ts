/**
 * The ResourceQuota plugin's configuration from the admission configuration file
 * (ResourceQuotaConfiguration of apiserver.config.k8s.io/v1, v1beta1 or v1alpha1): limitedResources,
 * each naming a resource whose matching consumption (matchContains substrings of the quota resource
 * names it uses, matchScopes it falls in) needs a covering quota.
 */
import type { ScopeSelectorRequirement } from '../../../quota/interface.js';
import type { LimitedResource, ResourceQuotaConfiguration } from './interface.js';

const versions = new Set(['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1beta1', 'apiserver.config.k8s.io/v1alpha1']);

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

/** Decodes and validates the configuration (undefined: none); throws an Error with kube's text. */
export function parseResourceQuotaConfiguration(config: unknown): ResourceQuotaConfiguration {
  if (config === undefined || config === null) return { limitedResources: [] };
  if (typeof config !== 'object' || Array.isArray(config)) throw new Error("couldn't get version/kind; json parse error: expected an object");
  const c = config as Record<string, unknown>;
  const apiVersion = typeof c.apiVersion === 'string' ? c.apiVersion : '';
  const kind = typeof c.kind === 'string' ? c.kind : '';
  if (!apiVersion || !kind) throw new Error(`Object 'Kind' is missing in '${JSON.stringify(config)}'`);
  if (!versions.has(apiVersion) || kind !== 'ResourceQuotaConfiguration') {
    throw new Error(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "pkg/runtime/scheme.go:100"`);
  }
  const list = Array.isArray(c.limitedResources) ? (c.limitedResources as Record<string, unknown>[]) : [];
  const errs: string[] = [];
  const limitedResources: LimitedResource[] = list.map((l, i) => {
    const resource = typeof l?.resource === 'string' ? l.resource : '';
    if (!resource) errs.push(`limitedResources[${i}].resource: Required value`);
    const scopes = Array.isArray(l?.matchScopes) ? (l.matchScopes as Record<string, unknown>[]) : [];
    return {
      apiGroup: typeof l?.apiGroup === 'string' ? l.apiGroup : '',
      resource,
      matchContains: strings(l?.matchContains),
      matchScopes: scopes.map(
        (s): ScopeSelectorRequirement => ({
          scopeName: typeof s?.scopeName === 'string' ? s.scopeName : '',
          operator: typeof s?.operator === 'string' ? s.operator : '',
          values: strings(s?.values),
        }),
      ),
    };
  });
  if (errs.length === 1) throw new Error(errs[0]);
  if (errs.length > 1) throw new Error(`[${errs.join(', ')}]`);
  return { limitedResources };
}
