import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { testAgentContext } from '../../../test/support/agent-context.js';
import type { ApiClient, WatchEvent } from '../client/api-client.js';
import { startApiSource } from './api-source.js';
import { startFileSource } from './file-source.js';

const pod = (name: string, rv: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', uid: name, resourceVersion: rv } });

async function until(pred: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('pod sources', () => {
  it('API source: lists with the node field selector, watches with bookmarks, relists on 410 Expired', async () => {
    const requests: string[] = [];
    let lists = 0;
    const client = {
      get: async (path: string, opts: { query: Record<string, string> }) => {
        requests.push(`list ${path} ${opts.query.fieldSelector}`);
        lists++;
        return lists === 1 ? { metadata: { resourceVersion: '10' }, items: [pod('a', '5')] } : { metadata: { resourceVersion: '20' }, items: [pod('b', '15')] };
      },
      watch: async function* (_path: string, query: Record<string, string>): AsyncGenerator<WatchEvent> {
        requests.push(`watch rv=${query.resourceVersion} bookmarks=${query.allowWatchBookmarks}`);
        if (query.resourceVersion === '10') {
          yield { type: 'ADDED', object: pod('c', '11') };
          yield { type: 'BOOKMARK', object: { metadata: { resourceVersion: '12' } } as KubeObject };
          yield { type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' } as unknown as KubeObject };
        }
        await new Promise(() => undefined);
      },
    } as unknown as ApiClient;
    const abort = new AbortController();
    const ctx = testAgentContext({ client, nodeName: 'n1', signal: abort.signal });
    const sets: string[][] = [];
    const source = startApiSource(ctx, (_s, pods) => sets.push(pods.map((p) => p.metadata.name ?? '').sort()));
    await until(() => sets.length >= 3, 'the relist');
    assert.deepEqual(sets, [['a'], ['a', 'c'], ['b']]);
    assert.deepEqual(requests, ['list /api/v1/pods spec.nodeName=n1', 'watch rv=10 bookmarks=true', 'list /api/v1/pods spec.nodeName=n1', 'watch rv=20 bookmarks=true']);
    assert.equal(source.synced, true);
    source.stop();
    abort.abort();
  });

  it('file source: a manifest written to the directory is seen through fs.watch, dot files ignored', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-file-source-'));
    // A check period far longer than the test: only the directory watch can deliver.
    const ctx = testAgentContext({ config: { fileCheckFrequencyMs: 600_000 } });
    const sets: string[][] = [];
    const source = startFileSource(ctx, dir, (_s, pods) => sets.push(pods.map((p) => p.metadata.name ?? '')));
    try {
      await until(() => sets.length === 1, 'the first (empty) set');
      assert.deepEqual(sets[0], []);
      await writeFile(join(dir, '.swap'), 'apiVersion: v1\nkind: Pod\nmetadata: {name: hidden}\nspec: {containers: [{name: c, image: i}]}\n');
      await writeFile(join(dir, 'web.json'), JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'c', image: 'i' }] } }));
      await until(() => sets.at(-1)?.includes('web-node-1') ?? false, 'the manifest');
      assert.deepEqual(sets.at(-1), ['web-node-1']);
      await rm(join(dir, 'web.json'));
      await until(() => sets.at(-1)?.length === 0, 'the removal');
    } finally {
      source.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('file source: a missing path is an empty set', async () => {
    const ctx = testAgentContext({ config: { fileCheckFrequencyMs: 600_000 } });
    const sets: number[] = [];
    const source = startFileSource(ctx, '/nonexistent/capstan/manifests', (_s, pods) => sets.push(pods.length));
    await until(() => sets.length === 1, 'the empty set');
    assert.deepEqual(sets, [0]);
    source.stop();
  });
});
