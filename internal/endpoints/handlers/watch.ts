/**
 * WATCH: a chunked stream of JSON watch events ({"type":...,"object":...} per line). Errors known
 * before the stream starts (410 for a compacted resourceVersion, 504 for one not reached yet) are
 * ordinary HTTP errors; once streaming, a failure is an ERROR event carrying the Status. The watch
 * ends after timeoutSeconds (or a random time between one and two --min-request-timeout), when
 * the client goes away, or when the server shuts down.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { newNotAcceptable } from '../../apierrors/factories.js';
import type { ListOptions } from '../../registry/interface.js';
import { interpretStorageError } from '../../registry/generic/storage-errors.js';
import type { StorageWatchEvent } from '../../storage/interface.js';
import { negotiateOutput } from '../negotiation/media-type.js';
import { parseIncludeObject, toTable } from '../negotiation/table.js';
import { setWarnings, toStatusError } from '../negotiation/writer.js';
import { toExternal } from '../scope.js';
import type { HandlerInput } from './common.js';
import { methodNotAllowed } from './method-not-allowed.js';

/** Runs a watch for opts and streams it to the client. */
export async function serveWatch(h: HandlerInput, opts: ListOptions): Promise<void> {
  const target = negotiateOutput(h.req.headers.accept, true);
  if (target.encoding !== 'json') throw newNotAcceptable(['application/json', 'application/json;stream=watch']);
  const include = target.as === 'Table' ? parseIncludeObject(h.query.get('includeObject')) : 'Metadata';
  const storage = h.scope.storage;
  if (!storage.watch) throw methodNotAllowed();
  const watch = await storage.watch(h.ctx, opts);

  const timeoutSeconds =
    opts.timeoutSeconds !== undefined && opts.timeoutSeconds > 0
      ? opts.timeoutSeconds
      : h.minRequestTimeoutSeconds * (1 + Math.random());
  const res = h.res;
  let ended = false;
  const stop = (): void => {
    if (ended) return;
    ended = true;
    watch.stop();
  };
  const timer = setTimeout(stop, timeoutSeconds * 1000);
  timer.unref();
  h.req.once('close', stop);
  res.once('close', stop);
  h.shutdown.addEventListener('abort', stop, { once: true });

  res.statusCode = 200;
  res.setHeader('Content-Type', target.as === 'Table' ? target.contentType : 'application/json');
  res.setHeader('Cache-Control', 'no-cache, private');
  res.setHeader('Transfer-Encoding', 'chunked');
  setWarnings(res, h.ctx.warnings);
  res.flushHeaders();

  let headersSent = false;
  const render = (ev: StorageWatchEvent): string => {
    if (ev.type === 'ERROR') {
      const status = toStatusError(interpretStorageError(ev.error, h.scope.gr, '', 'watch')).status;
      return `${JSON.stringify({ type: 'ERROR', object: status })}\n`;
    }
    if (ev.type === 'BOOKMARK') {
      const object: KubeObject = { kind: h.scope.kind, apiVersion: h.scope.apiVersion, metadata: ev.object.metadata };
      return `${JSON.stringify({ type: 'BOOKMARK', object })}\n`;
    }
    const external = toExternal(h.scope, ev.object);
    if (target.as === 'Table') {
      const table = toTable([external], undefined, { include, tableVersion: target.tableVersion ?? 'v1', noHeaders: headersSent });
      headersSent = true;
      return `${JSON.stringify({ type: ev.type, object: table })}\n`;
    }
    return `${JSON.stringify({ type: ev.type, object: external })}\n`;
  };

  try {
    for await (const ev of watch) {
      if (ended) break;
      const ok = res.write(render(ev));
      if (ev.type === 'ERROR') break;
      if (!ok) await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.once('drain', done);
        res.once('close', done);
      });
    }
  } finally {
    clearTimeout(timer);
    h.shutdown.removeEventListener('abort', stop);
    stop();
    if (!res.writableEnded) res.end();
  }
}
