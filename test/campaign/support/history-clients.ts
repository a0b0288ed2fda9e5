/**
 * The linearizability campaign's clients: each runs its (fast-check generated) plan of operations
 * over a small key space of ConfigMaps, spread over both API servers, and records every write and
 * quorum read with its times and answer. Writes are conditional on the resourceVersion (and uid)
 * the client last saw, so 409 Conflict is a normal answer; every written data value is unique.
 */
import { answerHead, call, objectState, outcomeOf, type Answer } from './history-http.js';
import type { ApiServer } from './history-cluster.js';
import type { ReadRecord, WriteKind, WriteRecord } from './history-types.js';

/** One planned operation: on which key, which action, via which server (index), and a choice among write verbs. */
export interface PlannedOp {
  readonly key: number;
  readonly action: 'write' | 'get' | 'list' | 'cached-list' | 'blind-create';
  readonly server: number;
  readonly pick: number;
}

/** Where the records of all clients go. */
export interface Recorder {
  readonly writes: WriteRecord[];
  readonly reads: ReadRecord[];
  nextId: number;
}

/** The campaign's key names: `lin-<n>`. */
export const keyName = (n: number): string => `lin-${n}`;

/** Whether a ConfigMap belongs to the campaign (the namespace also holds kube-root-ca.crt). */
export const isCampaignKey = (name: string): boolean => name.startsWith('lin-');

/** The items of a ConfigMap list that belong to the campaign, by name. */
export function campaignItems(list: { items?: any[] }): Record<string, ReturnType<typeof objectState>> {
  const out: Record<string, ReturnType<typeof objectState>> = {};
  for (const item of list.items ?? []) if (isCampaignKey(item.metadata.name)) out[item.metadata.name] = objectState(item);
  return out;
}

interface Known {
  rv: string;
  uid: string;
}

/** One client: runs plan against servers (preferring the op's, avoiding one that just failed) until the plan ends or keepGoing says stop. */
export async function runClient(id: number, ns: string, servers: readonly ApiServer[], plan: readonly PlannedOp[], rec: Recorder, keepGoing: () => boolean, progress: () => void): Promise<void> {
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  // What this client last saw of each key: an object, absent (null), or not known (undefined).
  const known = new Map<string, Known | null>();
  const avoidUntil = new Map<string, number>();
  let seq = 0;
  const pickServer = (i: number): ApiServer => {
    const first = servers[i % servers.length] as ApiServer;
    const other = servers[(i + 1) % servers.length] as ApiServer;
    return (avoidUntil.get(first.name) ?? 0) > performance.now() ? other : first;
  };
  const noteFailure = (server: ApiServer, a: Answer): void => {
    if (a.status === 0 || a.status === 503) avoidUntil.set(server.name, performance.now() + 300);
  };
  const read = async (server: ApiServer, key: string): Promise<void> => {
    const start = performance.now();
    const a = await call(server, 'GET', `${base}/${key}`);
    const end = performance.now();
    noteFailure(server, a);
    const object = a.status === 200 ? objectState(a.body) : undefined;
    rec.reads.push({ id: rec.nextId++, quorum: true, client: id, server: server.name, kind: 'get', key, start, end, status: a.status, ...(object ? { object } : {}) });
    if (object) known.set(key, { rv: object.rv, uid: object.uid });
    else if (a.status === 404) known.set(key, null);
  };
  for (const op of plan) {
    if (!keepGoing()) return;
    const server = pickServer(op.server);
    const key = keyName(op.key);
    if (op.action === 'get') {
      await read(server, key);
    } else if (op.action === 'list' || op.action === 'cached-list') {
      const quorum = op.action === 'list';
      const start = performance.now();
      const a = await call(server, 'GET', quorum ? base : `${base}?resourceVersion=0`);
      const end = performance.now();
      noteFailure(server, a);
      if (a.status === 200) rec.reads.push({ id: rec.nextId++, quorum, client: id, server: server.name, kind: 'list', start, end, status: 200, listRv: a.body.metadata.resourceVersion, items: campaignItems(a.body) });
    } else {
      const k = known.get(key);
      if (k === undefined && op.action !== 'blind-create') {
        await read(server, key);
      } else {
        await write(op.action === 'blind-create' || k === null ? 'create' : (['update', 'patch', 'delete'] as const)[op.pick % 3] as WriteKind, server, key, k ?? undefined);
      }
    }
    progress();
  }

  async function write(kind: WriteKind, server: ApiServer, key: string, k: Known | undefined): Promise<void> {
    const v = `${id}-${seq++}`;
    const precondition = kind === 'create' || !k ? undefined : kind === 'delete' ? { rv: k.rv, uid: k.uid } : { rv: k.rv };
    const data: Record<string, string> | undefined = kind === 'delete' ? undefined : kind === 'patch' ? { v, patchedBy: String(id) } : { v };
    const meta = { name: key, namespace: ns, ...(precondition ? { resourceVersion: precondition.rv } : {}) };
    const start = performance.now();
    const a =
      kind === 'create'
        ? await call(server, 'POST', base, { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta, data })
        : kind === 'update'
          ? await call(server, 'PUT', `${base}/${key}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta, data })
          : kind === 'patch'
            ? await call(server, 'PATCH', `${base}/${key}`, { metadata: { resourceVersion: precondition?.rv }, data }, 'application/merge-patch+json')
            : await call(server, 'DELETE', `${base}/${key}`, { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { resourceVersion: precondition?.rv, uid: precondition?.uid } });
    const end = performance.now();
    noteFailure(server, a);
    const outcome = outcomeOf(a);
    // A delete answers a Status (kube's ConfigMap store does not return the deleted object).
    const result = outcome === 'ok' && a.body?.kind === 'ConfigMap' ? objectState(a.body) : undefined;
    rec.writes.push({
      id: rec.nextId++,
      client: id,
      server: server.name,
      kind,
      key,
      start,
      end,
      ...(precondition ? { precondition } : {}),
      ...(data ? { data } : {}),
      outcome,
      status: a.status,
      ...(result ? { result } : {}),
      ...(outcome === 'ok' ? {} : { detail: answerHead(a) }),
    });
    if (outcome === 'ok') known.set(key, kind === 'delete' || !result ? null : { rv: result.rv, uid: result.uid });
    else known.delete(key);
  }
}
