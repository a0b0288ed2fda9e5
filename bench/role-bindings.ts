/**
 * Filler RoleBindings for RBAC at a production cluster's size: n bindings spread over namespaces
 * (every tenth in the namespace under test), each granting `view` or `edit` to users, groups and
 * service accounts that the benchmark's clients are not, so RBAC holds and indexes them as a real
 * cluster's. Written straight into etcd under /registry in the server's storage encoding (kube's
 * Protobuf) before the server starts, as an upgraded cluster's are, which takes a second where
 * creating them through the API on a loaded 2-core machine took ten; removed the same way.
 */
import { randomUUID } from 'node:crypto';
import { Etcd3 } from 'etcd3';
import type { KubeObject } from '../api/meta/types.js';
import { protobufCodec } from '../internal/storage/codec.js';

const spread = 9;

function namespaceOf(i: number, inNamespace: string): string {
  return i % 10 === 0 ? inNamespace : `bench-rbac-${i % spread}`;
}

function stored(obj: Record<string, unknown>): Buffer {
  return protobufCodec.encode(obj as unknown as KubeObject);
}

function binding(i: number, namespace: string): Buffer {
  return stored({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: `filler-${i}`, namespace, uid: randomUUID(), creationTimestamp: '2026-01-01T00:00:00Z', labels: { bench: 'filler-rolebinding' } },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: i % 2 === 0 ? 'view' : 'edit' },
    subjects: [
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: `filler-user-${i}` },
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: `filler-group-${i % 50}` },
      { kind: 'ServiceAccount', name: `filler-sa-${i}`, namespace: 'default' },
    ],
  });
}

function namespace(name: string): Buffer {
  return stored({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, uid: randomUUID(), creationTimestamp: '2026-01-01T00:00:00Z', labels: { 'kubernetes.io/metadata.name': name } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  });
}

/** Writes n filler RoleBindings (and the namespaces they spread over, but inNamespace) into etcd; returns their namespaces. */
export async function writeFillerRoleBindings(endpoint: string, n: number, inNamespace: string): Promise<string[]> {
  const client = new Etcd3({ hosts: [endpoint] });
  try {
    const others = Array.from({ length: spread }, (_, i) => `bench-rbac-${i}`);
    await Promise.all(others.map((ns) => client.put(`/registry/namespaces/${ns}`).value(namespace(ns))));
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < n) {
        const i = next++;
        const ns = namespaceOf(i, inNamespace);
        await client.put(`/registry/rolebindings/${ns}/filler-${i}`).value(binding(i, ns));
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    return [inNamespace, ...others];
  } finally {
    client.close();
  }
}

/** Deletes the fillers of namespaces from etcd (the server's watch sees the deletions). */
export async function deleteFillerRoleBindings(endpoint: string, namespaces: readonly string[]): Promise<void> {
  const client = new Etcd3({ hosts: [endpoint] });
  try {
    for (const ns of namespaces) await client.delete().prefix(`/registry/rolebindings/${ns}/filler-`);
  } finally {
    client.close();
  }
}
