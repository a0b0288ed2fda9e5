/**
 * The watch handler's stream framing, with a storage that produces chosen events: an ERROR in
 * the middle of a stream ends it with a Status, bookmarks carry the resource's kind, and the
 * stream ends when the server shuts down.
 */
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AdmissionChain } from '../../admission/chain.js';
import type { RestStorage } from '../../registry/interface.js';
import { anonymousUser } from '../../request/context.js';
import { parseRequestInfo } from '../../request/request-info.js';
import { everythingFields } from '../../selectors/fields.js';
import { everythingLabels } from '../../selectors/labels.js';
import { StorageError } from '../../storage/errors.js';
import { EventQueue } from '../../storage/event-queue.js';
import type { StorageWatchEvent } from '../../storage/interface.js';
import type { ResourceScope } from '../scope.js';
import { serveWatch } from './watch.js';

function scopeWith(storage: RestStorage): ResourceScope {
  return {
    group: '',
    version: 'v1',
    resource: 'configmaps',
    subresource: '',
    namespaced: true,
    kind: 'ConfigMap',
    apiVersion: 'v1',
    listKind: 'ConfigMapList',
    storage,
    verbs: new Set(['watch']),
    selectableFields: { extra: [], style: 'meta' },
    stored: { apiVersion: 'v1', kind: 'ConfigMap' },
    hasStatusSubresource: false,
    protobuf: true,
    gr: { group: '', resource: 'configmaps' },
  };
}

async function serve(events: StorageWatchEvent[], shutdown: AbortController, endAfter = true): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const queue = new EventQueue<StorageWatchEvent>();
    for (const e of events) queue.push(e);
    if (endAfter) queue.end();
    const storage: RestStorage = {
      watch: async () => ({ stop: () => queue.end(), [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator]() }),
    };
    const query = new URLSearchParams('watch=true');
    const ctx = {
      requestInfo: parseRequestInfo('GET', '/api/v1/namespaces/ns/configmaps', query),
      user: anonymousUser,
      signal: new AbortController().signal,
      warnings: [],
      userAgent: '',
      receivedAt: Date.now(),
    };
    void serveWatch(
      { req, res, query, ctx, scope: scopeWith(storage), admission: new AdmissionChain([]), minRequestTimeoutSeconds: 60, shutdown: shutdown.signal, watchPath: false },
      {
        labelSelector: everythingLabels,
        fieldSelector: everythingFields,
        resourceVersion: '5',
        resourceVersionMatch: '',
        limit: 0,
        continueToken: '',
        watch: true,
        allowWatchBookmarks: true,
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  return { server, port: typeof addr === 'object' && addr ? addr.port : 0 };
}

function readAll(port: number): Promise<{ status: number; lines: any[] }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, lines: body.split('\n').filter(Boolean).map((l) => JSON.parse(l)) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('watch stream framing', () => {
  it('an ERROR after the stream started is a 410 Status event that ends the stream', async () => {
    const shutdown = new AbortController();
    const { server, port } = await serve(
      [
        { type: 'ADDED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '6' } } },
        { type: 'ERROR', error: new StorageError('Expired', '/x', 'The resourceVersion for the provided watch is too old.') },
        { type: 'ADDED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'never', resourceVersion: '9' } } },
      ],
      shutdown,
    );
    try {
      const { status, lines } = await readAll(port);
      assert.equal(status, 200);
      assert.equal(lines.length, 2);
      assert.equal(lines[0].type, 'ADDED');
      assert.deepEqual(lines[1], {
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'The resourceVersion for the provided watch is too old.',
          reason: 'Expired',
          code: 410,
        },
      });
    } finally {
      server.close();
    }
  });

  it('bookmarks carry the kind and apiVersion of the resource and only the metadata', async () => {
    const shutdown = new AbortController();
    const { server, port } = await serve([{ type: 'BOOKMARK', object: { metadata: { resourceVersion: '42' } } }], shutdown);
    try {
      const { lines } = await readAll(port);
      assert.deepEqual(lines, [{ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '42' } } }]);
    } finally {
      server.close();
    }
  });

  it('server shutdown ends an open watch cleanly', async () => {
    const shutdown = new AbortController();
    const { server, port } = await serve([{ type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: '6' } } }], shutdown, false);
    try {
      setTimeout(() => shutdown.abort(), 100);
      const { status, lines } = await readAll(port);
      assert.equal(status, 200);
      assert.equal(lines.length, 1);
    } finally {
      server.close();
    }
  });

  it('keeps no event alive once it is written (the frame memo holds frames only while the event lives)', async () => {
    // Events straight from etcd are each a watcher's own: a memo that kept the last 4096 of them
    // held 4096 decoded objects and frames however large they were (4096 x 1 MiB objects: 8 GiB).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const events: StorageWatchEvent[] = Array.from({ length: 8 }, (_, i) => ({
      type: 'MODIFIED',
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, resourceVersion: String(10 + i) }, data: { d: 'x'.repeat(64 * 1024) } },
    }));
    const refs = events.map((e) => new WeakRef((e as { object: object }).object));
    const { server, port } = await serve(events, new AbortController());
    try {
      const { lines } = await readAll(port);
      assert.equal(lines.length, 8);
    } finally {
      server.close();
    }
    events.length = 0;
    for (let i = 0; i < 5 && refs.some((r) => r.deref() !== undefined); i++) {
      await new Promise((r) => setImmediate(r));
      gc();
    }
    assert.deepEqual(refs.map((r) => r.deref() === undefined), Array(8).fill(true), 'written events still reachable');
  });
});
