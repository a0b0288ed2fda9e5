/**
 * The write-path benchmark's verbs as request generators over 1 KiB ConfigMaps, each worker on
 * objects of its own: create (POST of fresh names, remembered for delete), update (PUT carrying
 * the resourceVersion of the worker's last answer), merge patch, strategic merge patch and
 * server-side apply (each changing one data value), and delete (of objects the creates made).
 */
import type { Client } from './client.js';
import { callOk } from './client.js';
import { configMap } from './objects.js';
import type { WriteRequest } from './write-loop.js';

/** The verbs, in the order they are measured. */
export const writeVerbs = ['create', 'update', 'merge patch', 'strategic patch', 'apply', 'delete'] as const;
export type WriteVerb = (typeof writeVerbs)[number];

/** What the write loop needs of one verb. */
export interface VerbLoad {
  readonly next: (worker: number) => WriteRequest | undefined;
  readonly onAnswer: (worker: number, body: Buffer) => void;
}

const pad = (configMap({ name: 'x' }, 1024).data as { pad: string }).pad;
const resourceVersionPattern = /"resourceVersion":"(\d+)"/;

function fullObject(name: string, value: string, resourceVersion?: string): Buffer {
  const metadata = resourceVersion ? { name, resourceVersion } : { name };
  return Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { pad, v: value } }));
}

/** The verbs' generators on collection with workers workers; prepare() makes the objects updates and patches change. */
export function verbLoads(collection: string, workers: number): { prepare(client: Client): Promise<void>; load(verb: WriteVerb): VerbLoad } {
  let seq = 0;
  const runId = Date.now().toString(36);
  // Names the creates made (per worker), deleted by the delete runs.
  const made: string[][] = Array.from({ length: workers }, () => []);
  const sending: string[] = Array.from({ length: workers }, () => '');
  const versions: string[] = Array.from({ length: workers }, () => '');
  const owned = (prefix: string, w: number): string => `${prefix}-${runId}-${w}`;
  const patch = (w: number, prefix: string, contentType: string): WriteRequest => ({
    method: 'PATCH',
    path: `${collection}/${owned(prefix, w)}`,
    body: Buffer.from(JSON.stringify({ data: { v: String(seq++) } })),
    contentType,
  });
  const ignore = (): void => undefined;
  const loads: Record<WriteVerb, VerbLoad> = {
    create: {
      next: (w) => {
        const name = `c-${runId}-${w}-${seq++}`;
        sending[w] = name;
        return { method: 'POST', path: collection, body: fullObject(name, '0') };
      },
      onAnswer: (w) => void (made[w] as string[]).push(sending[w] as string),
    },
    update: {
      next: (w) => ({ method: 'PUT', path: `${collection}/${owned('u', w)}`, body: fullObject(owned('u', w), String(seq++), versions[w]) }),
      onAnswer: (w, body) => {
        const m = resourceVersionPattern.exec(body.toString('latin1', 0, 600));
        if (m) versions[w] = m[1] as string;
      },
    },
    'merge patch': { next: (w) => patch(w, 'm', 'application/merge-patch+json'), onAnswer: ignore },
    'strategic patch': { next: (w) => patch(w, 's', 'application/strategic-merge-patch+json'), onAnswer: ignore },
    apply: {
      next: (w) => ({
        method: 'PATCH',
        path: `${collection}/${owned('a', w)}?fieldManager=bench-apply&force=true`,
        body: fullObject(owned('a', w), String(seq++)),
        contentType: 'application/apply-patch+yaml',
      }),
      onAnswer: ignore,
    },
    delete: {
      next: (w) => {
        const name = (made[w] as string[]).pop();
        return name === undefined ? undefined : { method: 'DELETE', path: `${collection}/${name}` };
      },
      onAnswer: ignore,
    },
  };
  return {
    async prepare(client) {
      for (let w = 0; w < workers; w++) {
        for (const prefix of ['u', 'm', 's', 'a']) {
          const created = await callOk<{ metadata: { resourceVersion: string } }>(client, 'POST', collection, JSON.parse(fullObject(owned(prefix, w), 'init').toString()));
          if (prefix === 'u') versions[w] = created.metadata.resourceVersion;
        }
      }
    },
    load: (verb) => loads[verb],
  };
}
