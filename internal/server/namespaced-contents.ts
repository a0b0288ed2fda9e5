/**
 * What the namespace controller deletes with a namespace: one entry per stored namespaced
 * resource, and the namespaced custom resources served at the time.
 */
import type { NamespacedContent } from '../controllers/namespace/controller.js';
import type { ApiInstaller } from '../endpoints/installer.js';
import type { ResourceRegistration } from '../registry/registration.js';

/**
 * The contents of a namespace. Each stored resource appears once (events.k8s.io/v1 events are
 * core events): its storage version's registration where that is served, else whichever version
 * --runtime-config left on.
 */
export function namespacedContents(registrations: readonly ResourceRegistration[], installer: ApiInstaller): () => NamespacedContent[] {
  const byStored = new Map<string, ResourceRegistration>();
  for (const r of registrations) {
    if (!r.namespaced) continue;
    const storedAs = r.storedAs?.apiVersion ?? 'v1';
    const storedGroup = !r.conversion ? r.group : storedAs.includes('/') ? storedAs.slice(0, storedAs.indexOf('/')) : '';
    const key = `${storedGroup}/${r.resource}`;
    if (!byStored.has(key) || !r.conversion) byStored.set(key, r);
  }
  const builtin = [...byStored.values()].map((r) => ({ group: r.group, resource: r.resource, storage: r.main }));
  // Custom resources come and go: the namespaced ones served now are deleted with their namespace.
  return () => [...builtin, ...installer.dynamicResources().filter((r) => r.namespaced)];
}
