/**
 * The objects the benchmarks write: ConfigMaps padded to about 1 KiB of JSON and small Pods of
 * about 1.2 KiB as the server returns them, and the paths of their collections.
 */

/** The collection path of a namespaced core/v1 resource. */
export function collectionPath(namespace: string, resource: string): string {
  return `/api/v1/namespaces/${namespace}/${resource}`;
}

/** A ConfigMap whose data pads it to about bytes of JSON as sent; name or generateName. */
export function configMap(name: { name: string } | { generateName: string }, bytes = 1024, data: Record<string, string> = {}): Record<string, unknown> {
  const base = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...name }, data: { ...data, pad: '' } };
  const size = Buffer.byteLength(JSON.stringify(base));
  base.data.pad = 'x'.repeat(Math.max(0, bytes - size));
  return base;
}

/**
 * A Pod with three labels and one container: about 1.2 KiB once the server has added uid,
 * timestamps, managedFields, defaults and status, the smallest a realistic Pod gets (the brief's
 * "about 1 KiB"; no padding needed).
 */
export function pod(name: string, i: number): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'bench', shard: `s${i % 16}`, index: String(i) } },
    spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
  };
}
