/**
 * The soak's end check of its informers: with the load stopped, one fence write per watched
 * collection, then each informer must reach the fence's resourceVersion and hold exactly what a
 * fresh list shows (names and resourceVersions). A stalled informer or a difference is a missed
 * or invented watch event.
 */
import type { SoakClient } from './client.js';
import type { Informer } from './informer.js';
import type { Recorder } from './recorder.js';

/** The fence write of one collection; resolves the resourceVersion it produced. */
export type Fence = (client: SoakClient) => Promise<number>;

/** Compares every informer with a fresh list; returns how many objects were compared. */
export async function checkInformers(client: SoakClient, informers: readonly Informer[], fences: ReadonlyMap<string, Fence>, recorder: Recorder): Promise<number> {
  let compared = 0;
  const fenceRV = new Map<string, number>();
  for (const [resource, fence] of fences) fenceRV.set(resource, await fence(client));
  for (const inf of informers) {
    const target = fenceRV.get(inf.resource.name) ?? 0;
    if (!(await inf.caughtUp(target, 60_000))) {
      recorder.defect(`${inf.label} stalled: it is at resourceVersion ${inf.lastRV}, 60 s after a write at ${target}`);
      continue;
    }
    let diff: string[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const res = await client.raw('GET', inf.resource.path);
      if (res.status !== 200) {
        diff = [`list answered ${res.status}`];
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      const list = res.json() as { metadata: { resourceVersion: string }; items: Array<{ metadata: { name: string; resourceVersion: string } }> };
      await inf.caughtUp(Number(list.metadata.resourceVersion), 10_000);
      const want = new Map(list.items.map((o) => [o.metadata.name, Number(o.metadata.resourceVersion)]));
      diff = [];
      const at = `list at ${list.metadata.resourceVersion} from ${res.server}`;
      for (const [n, rv] of want) if (inf.cache.get(n) !== rv) diff.push(`${n}: ${at} has ${rv}, informer ${inf.cache.get(n) ?? 'absent'} (${inf.source.get(n) ?? 'never seen'}; informer at ${inf.lastRV})`);
      for (const [n, rv] of inf.cache) if (!want.has(n)) diff.push(`${n}: ${at} lacks it, informer ${rv} (${inf.source.get(n) ?? ''})`);
      if (diff.length === 0) {
        compared += want.size;
        break;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    if (diff.length > 0) recorder.defect(`${inf.label} differs from a fresh list in ${diff.length} objects: ${diff.slice(0, 5).join('; ')}`);
  }
  return compared;
}
