/**
 * The start-up storm's etcd contents under a key prefix of its own (the server is started with
 * that --etcd-prefix), so that the row measures the same thing whatever earlier benchmarks left
 * under /registry: other objects (ConfigMaps and Secrets of about 1 KiB in namespaces of their
 * own) written straight into etcd in the server's storage encoding (kube's Protobuf, as
 * testServerOptions configures), and the run's seeded Pods copied byte for byte from /registry.
 */
import { randomUUID } from 'node:crypto';
import { Etcd3 } from 'etcd3';
import { protobufCodec } from '../internal/storage/codec.js';
import type { KubeObject } from '../api/meta/types.js';
import { configMap } from './objects.js';

/** What seeding wrote. */
export interface StormSeed {
  readonly others: number;
  readonly pods: number;
  readonly ms: number;
}

// etcd's default --max-txn-ops is 128.
const opsPerTxn = 100;

/** The end of the key range holding every key that starts with prefix (which ends in '/'). */
function rangeEnd(prefix: string): string {
  return `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
}

function other(i: number, namespaces: number): { key: string; value: Buffer } {
  const ns = `storm-${i % namespaces}`;
  const secret = i % 2 === 1;
  const name = `${secret ? 's' : 'c'}-${i}`;
  const meta = { name, namespace: ns, uid: randomUUID(), creationTimestamp: '2026-01-01T00:00:00Z' };
  const data = configMap({ name }, 1024).data as Record<string, string>;
  const obj = secret
    ? { apiVersion: 'v1', kind: 'Secret', metadata: meta, type: 'Opaque', data: { pad: Buffer.from(data.pad ?? '').toString('base64') } }
    : { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta, data };
  return { key: `${secret ? 'secrets' : 'configmaps'}/${ns}/${name}`, value: protobufCodec.encode(obj as unknown as KubeObject) };
}

/** Writes puts in transactions of opsPerTxn, 8 transactions in flight. */
async function putAll(client: Etcd3, puts: Array<{ key: string; value: Buffer }>): Promise<void> {
  const batches: Array<Array<{ key: string; value: Buffer }>> = [];
  for (let i = 0; i < puts.length; i += opsPerTxn) batches.push(puts.slice(i, i + opsPerTxn));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < batches.length) {
      const batch = batches[next++] as Array<{ key: string; value: Buffer }>;
      // A compare on a key nobody writes (version 0): always true, so the puts always apply.
      await client
        .if('/bench-storm-never-written', 'Version', '==', 0)
        .then(...batch.map((p) => client.put(p.key).value(p.value)))
        .commit();
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** Fills prefix (ending in '/') with others objects and the Pods of /registry/pods/podNamespace/, unless it holds them already. */
export async function seedStorm(endpoint: string, prefix: string, others: number, podNamespace: string): Promise<StormSeed> {
  const started = performance.now();
  const client = new Etcd3({ hosts: [endpoint] });
  try {
    const existing = await client.getAll().prefix(prefix).count();
    if (existing >= others) return { others: 0, pods: 0, ms: performance.now() - started };
    await putAll(client, Array.from({ length: others }, (_, i) => other(i, 30)).map((p) => ({ key: `${prefix}${p.key}`, value: p.value })));
    const from = `/registry/pods/${podNamespace}/`;
    let start = from;
    let pods = 0;
    for (;;) {
      const page = await client.getAll().inRange({ start, end: rangeEnd(from) }).limit(1000).buffers();
      const keys = Object.keys(page);
      if (keys.length === 0) break;
      await putAll(client, keys.map((k) => ({ key: `${prefix}${k.slice('/registry/'.length)}`, value: page[k] as Buffer })));
      pods += keys.length;
      start = `${keys[keys.length - 1]}\0`;
      if (keys.length < 1000) break;
    }
    return { others, pods, ms: performance.now() - started };
  } finally {
    client.close();
  }
}
