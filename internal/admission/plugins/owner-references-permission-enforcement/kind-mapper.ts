/**
 * The REST mapping the plugin needs: which served resources an owner reference's apiVersion/kind
 * names, from the generated API data of the resources the server serves.
 */
import { generatedResources } from '../../../../api/gen/resources.js';
import type { StorageLookup } from '../../../controllers/shared-informers.js';
import type { KindMapper, KindMapping } from './plugin.js';

/** A mapper over the served resources; errors in kube's words. */
export function servedKindMapper(storageOf: StorageLookup): KindMapper {
  const cache = new Map<string, readonly KindMapping[]>();
  return (apiVersion, kind) => {
    const parts = apiVersion.split('/');
    if (parts.length > 2 || apiVersion === '') throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
    const [group, version] = parts.length === 2 ? [parts[0] as string, parts[1] as string] : ['', parts[0] as string];
    const key = `${group}/${version}/${kind}`;
    let found = cache.get(key);
    if (!found) {
      found = generatedResources
        .filter((r) => r.group === group && r.version === version && r.kind === kind && storageOf(r.group, r.resource))
        .map((r) => ({ group: r.group, version: r.version, resource: r.resource, namespaced: r.namespaced }));
      if (found.length === 0) throw new Error(`no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}`);
      cache.set(key, found);
    }
    return found;
  };
}
