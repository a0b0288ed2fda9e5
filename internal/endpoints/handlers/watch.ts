/**
 * WATCH: a chunked stream of JSON watch events ({"type":...,"object":...} per line). Errors known
 * before the stream starts (410 for a compacted resourceVersion, 504 for one not reached yet) are
 * ordinary HTTP errors; once streaming, a failure is an ERROR event carrying the Status. The watch
 * ends after timeoutSeconds (or a random time between one and two --min-request-timeout), when
 * the client goes away, or when the server shuts down.
 */
import type { Duplex } from 'node:stream';
import type { KubeObject, Status } from '../../../api/meta/types.js';
import { encodeWatchEvent } from '../../../proto/watch-event.js';
import type { JsonObject } from '../../../proto/types.js';
import { newNotAcceptable } from '../../apierrors/factories.js';
import type { ListOptions } from '../../registry/interface.js';
import { interpretStorageError } from '../../registry/generic/storage-errors.js';
import type { StorageWatchEvent } from '../../storage/interface.js';
import { negotiateOutput } from '../negotiation/media-type.js';
import { asPartialObjectMetadata, checkPartialShape } from '../negotiation/partial-metadata.js';
import { parseIncludeObject, toTable } from '../negotiation/table.js';
import { setWarnings, toStatusError } from '../negotiation/writer.js';
import { toExternal } from '../scope.js';
import { servesStoredForm, tableSource, type HandlerInput } from './common.js';
import { encodedJsonOfEvent } from '../../storage/encoded.js';
import { methodNotAllowed } from './method-not-allowed.js';
import { GoDuration } from '../../observability/go-text.js';
import { isHttp2 } from '../../server/serving/protocol.js';

/**
 * Frames encoded for events (converted or Protobuf), keyed by the event object, then by
 * representation and event type: every watcher of an endpoint shares one encoding of an event. The
 * memo holds an event's frames only while something else holds the event (the watch cache's window,
 * a watcher's queue), so it never keeps events alive itself, whatever their size.
 */
const frames = new WeakMap<object, Map<string, Buffer>>();
const closeJsonFrame = Buffer.from('}\n');
const jsonFrameHeads: Record<string, Buffer> = {
  ADDED: Buffer.from('{"type":"ADDED","object":'),
  MODIFIED: Buffer.from('{"type":"MODIFIED","object":'),
  DELETED: Buffer.from('{"type":"DELETED","object":'),
};
/** What one write of a watch stream may gather when the client is behind. */
const maxBatchBytes = 64 * 1024;

/** A Protobuf watch frame: the WatchEvent message behind its length as 4 big-endian bytes. */
function protobufFrame(type: string, object: KubeObject | Status): Buffer {
  const body = encodeWatchEvent({ type, object: object as unknown as JsonObject });
  const out = Buffer.allocUnsafe(4 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.set(body, 4);
  return out;
}

/** Runs a watch for opts and streams it to the client. */
export async function serveWatch(h: HandlerInput, opts: ListOptions): Promise<void> {
  const target = negotiateOutput(h.req.headers.accept, true, h.scope.protobuf);
  if (target.encoding === 'yaml') {
    throw newNotAcceptable(['application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch']);
  }
  // Each event carries one object: PartialObjectMetadata, never the List form.
  checkPartialShape(target.as, false, h.scope.group, h.scope.kind);
  const metaVersion = target.metaVersion ?? 'v1';
  const protobuf = target.encoding === 'protobuf';
  const include = target.as === 'Table' ? parseIncludeObject(h.query.get('includeObject')) : 'Metadata';
  const storage = h.scope.storage;
  if (!storage.watch) throw methodNotAllowed();
  const watch = await storage.watch(h.ctx, opts);

  // kube's ListResource: timeoutSeconds when given and not 0, else a random time between one and
  // two --min-request-timeout (spreading reconnects out), and none at all when that is 0.
  let timeoutSeconds = opts.timeoutSeconds ?? 0;
  if (timeoutSeconds === 0 && h.minRequestTimeoutSeconds > 0) timeoutSeconds = h.minRequestTimeoutSeconds * (1 + Math.random());
  if (h.log?.enabled(3)) {
    h.log.v(3, 'Starting watch', {
      path: h.ctx.requestInfo.path,
      resourceVersion: opts.resourceVersion,
      labels: h.query.get('labelSelector') ?? '',
      fields: h.query.get('fieldSelector') ?? '',
      timeout: new GoDuration(timeoutSeconds * 1e9),
    });
  }
  const res = h.res;
  let ended = false;
  const stop = (): void => {
    if (ended) return;
    ended = true;
    watch.stop();
  };
  // Past setTimeout's range (about 24.8 days) Node would fire at once: such a watch just runs on.
  const timeoutMs = Math.max(0, timeoutSeconds * 1000);
  const timer = timeoutSeconds === 0 || timeoutMs > 2_147_483_647 ? undefined : setTimeout(stop, timeoutMs);
  timer?.unref();
  h.req.once('close', stop);
  res.once('close', stop);
  h.shutdown.addEventListener('abort', stop, { once: true });

  res.statusCode = 200;
  res.setHeader('Content-Type', protobuf ? 'application/vnd.kubernetes.protobuf;stream=watch' : 'application/json');
  res.setHeader('Cache-Control', 'no-cache, private');
  // HTTP/2 frames the stream itself and forbids the header.
  if (!isHttp2(h.req)) res.setHeader('Transfer-Encoding', 'chunked');
  setWarnings(res, h.ctx.warnings);
  res.flushHeaders();
  // Priority and fairness holds a watch's seats until its initial events are written: those
  // buffered when the watch opened go out in the first batches; with none, it is initialized now.
  let initialized = h.ctx.watchInitialized;
  let sawEvent = false;
  if (initialized) setImmediate(() => {
    if (!sawEvent) initialized?.();
  });

  let headersSent = false;
  // Over HTTP/2 a batch's shared pieces (an event's bytes are the same for every watcher) are
  // written corked rather than joined: the stream keeps references to them until flow control lets
  // them out, where a joined copy per watcher held about 50 KiB per watcher at a fan-out's peak.
  // Over HTTP/1.1 TLS copies what it encrypts anyway, and one chunk per batch is fewer bytes.
  const h2stream = isHttp2(h.req) ? (h.req as unknown as { stream: Duplex }).stream : undefined;
  const frame = (type: string, object: KubeObject | Status): Buffer => (protobuf ? protobufFrame(type, object) : Buffer.from(`${JSON.stringify({ type, object })}\n`));
  // Plain events are serialised once per event and representation, and every watcher of the
  // same endpoint writes the same bytes (the watch cache hands all its watchers one event object).
  const variant = target.as === '' ? `${protobuf ? 'pb' : 'json'}|${h.scope.apiVersion}|${h.scope.kind}` : undefined;
  const storedJson = !protobuf && servesStoredForm(h.scope);
  const plainFrame = (ev: StorageWatchEvent & { object: KubeObject }, key: string): Buffer | Buffer[] => {
    // The cache's JSON bytes are this endpoint's: written between a head and a tail, no memo needed.
    const bytes = storedJson ? encodedJsonOfEvent(ev) : undefined;
    if (bytes) return [jsonFrameHeads[ev.type] as Buffer, bytes, closeJsonFrame];
    let memo = frames.get(ev);
    const hit = memo?.get(key);
    if (hit) return hit;
    const out = frame(ev.type, toExternal(h.scope, ev.object));
    if (!memo) {
      memo = new Map();
      frames.set(ev, memo);
    }
    memo.set(key, out);
    return out;
  };
  const render = (ev: StorageWatchEvent): Buffer | Buffer[] => {
    if (ev.type === 'ERROR') {
      const status = toStatusError(interpretStorageError(ev.error, h.scope.gr, '', 'watch')).status;
      return frame('ERROR', status);
    }
    if (ev.type === 'BOOKMARK') {
      const object: KubeObject = { kind: h.scope.kind, apiVersion: h.scope.apiVersion, metadata: ev.object.metadata };
      return frame('BOOKMARK', target.as === 'PartialObjectMetadata' ? asPartialObjectMetadata(object, metaVersion) : object);
    }
    if (variant !== undefined) return plainFrame(ev, `${variant}|${ev.type}`);
    const external = toExternal(h.scope, ev.object);
    if (target.as === 'PartialObjectMetadata') return frame(ev.type, asPartialObjectMetadata(external, metaVersion));
    const table = toTable([external], undefined, { include, tableVersion: metaVersion, noHeaders: headersSent, ...tableSource(h) });
    headersSent = true;
    return Buffer.from(`${JSON.stringify({ type: ev.type, object: table })}\n`);
  };

  // apiserver_watch_events_total and _sizes, by the endpoint's group, version and kind.
  const events = h.metrics?.requests.watchEventRecorder(h.scope.group, h.scope.version, h.scope.kind);
  try {
    for await (const first of watch) {
      sawEvent = true;
      if (ended) break;
      // Events that reach this watch in the same turn of the event loop (one etcd response, or
      // a backlog when the client is behind) go out in one write: fewer TLS records and syscalls
      // per event exactly when the server is busiest.
      if (first.type !== 'ERROR' && watch.takeReady) await new Promise<void>((resolve) => setImmediate(resolve));
      if (ended) break;
      const batch: Buffer[] = [];
      let size = 0;
      const add = (ev: StorageWatchEvent): void => {
        const r = render(ev);
        const before = size;
        if (Array.isArray(r)) {
          for (const b of r) {
            batch.push(b);
            size += b.length;
          }
        } else {
          batch.push(r);
          size += r.length;
        }
        events?.sent(size - before);
      };
      let last: StorageWatchEvent = first;
      add(first);
      let next: StorageWatchEvent | undefined;
      while (last.type !== 'ERROR' && size < maxBatchBytes && watch.takeReady && (next = watch.takeReady()) !== undefined) {
        last = next;
        add(next);
      }
      let ok: boolean;
      if (h2stream && batch.length > 1) {
        h2stream.cork();
        ok = true;
        for (const b of batch) ok = res.write(b) && ok;
        h2stream.uncork();
      } else ok = res.write(batch.length === 1 ? (batch[0] as Buffer) : Buffer.concat(batch, size));
      if (initialized && next === undefined) {
        initialized();
        initialized = undefined;
      }
      if (last.type === 'ERROR') break;
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
    initialized?.();
    clearTimeout(timer);
    h.shutdown.removeEventListener('abort', stop);
    stop();
    if (!res.writableEnded) res.end();
  }
}
