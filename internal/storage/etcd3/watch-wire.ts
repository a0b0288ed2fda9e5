/**
 * etcd's WatchResponse decoded by hand into the very object the etcd3 client's proto-loader
 * deserializer makes (int64 as decimal strings, bytes as Buffers, enum names, absent messages
 * null, every scalar defaulted), and installed as the Watch stream's deserializer: the watch
 * cache's etcd watch receives every write back, one message per event batch.
 */
import type * as grpc from '@grpc/grpc-js';
import { decodeKeyValue, Reader, type WireKeyValue } from './kv-wire.js';

/** A WatchResponse as the etcd3 client's watch code reads it. */
export interface WireWatchResponse {
  header: { cluster_id: string; member_id: string; revision: string; raft_term: string } | null;
  watch_id: string;
  created: boolean;
  canceled: boolean;
  compact_revision: string;
  cancel_reason: string;
  fragment: boolean;
  events: Array<{ type: 'Put' | 'Delete'; kv: WireKeyValue | null; prev_kv: WireKeyValue | null }>;
}

const eventTypes = ['Put', 'Delete'] as const;

function decodeFullHeader(r: Reader, end: number): NonNullable<WireWatchResponse['header']> {
  const h = { cluster_id: '0', member_id: '0', revision: '0', raft_term: '0' };
  while (r.pos < end) {
    const tag = r.varint();
    if (tag === 0x08) h.cluster_id = r.int64String(false);
    else if (tag === 0x10) h.member_id = r.int64String(false);
    else if (tag === 0x18) h.revision = r.int64String(true);
    else if (tag === 0x20) h.raft_term = r.int64String(false);
    else r.skip(tag & 7);
  }
  return h;
}

function decodeEvent(r: Reader, end: number): WireWatchResponse['events'][number] {
  let type = 0;
  let kv: WireKeyValue | null = null;
  let prev: WireKeyValue | null = null;
  while (r.pos < end) {
    const tag = r.varint();
    if (tag === 0x08) type = r.varint();
    else if (tag === 0x12) kv = decodeKeyValue(r, r.delimited());
    else if (tag === 0x1a) prev = decodeKeyValue(r, r.delimited());
    else r.skip(tag & 7);
  }
  const name = eventTypes[type];
  if (!name) throw new Error(`unknown watch event type ${type}`);
  return { type: name, kv, prev_kv: prev };
}

/** Decodes a WatchResponse. */
export function decodeWatchResponse(buf: Buffer): WireWatchResponse {
  const r = new Reader(buf, 0, buf.length);
  const res: WireWatchResponse = {
    header: null,
    watch_id: '0',
    created: false,
    canceled: false,
    compact_revision: '0',
    cancel_reason: '',
    fragment: false,
    events: [],
  };
  while (r.pos < buf.length) {
    const tag = r.varint();
    switch (tag) {
      case 0x0a:
        res.header = decodeFullHeader(r, r.delimited());
        break;
      case 0x10:
        res.watch_id = r.int64String(true);
        break;
      case 0x18:
        res.created = r.varint() !== 0;
        break;
      case 0x20:
        res.canceled = r.varint() !== 0;
        break;
      case 0x28:
        res.compact_revision = r.int64String(true);
        break;
      case 0x32:
        res.cancel_reason = r.string();
        break;
      case 0x38:
        res.fragment = r.varint() !== 0;
        break;
      case 0x5a:
        res.events.push(decodeEvent(r, r.delimited()));
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return res;
}

interface BidiMethod {
  readonly path: string;
  readonly requestSerialize: (value: unknown) => Buffer;
}

/**
 * Makes the Watch service client class of client's KV-sibling services decode with
 * decodeWatchResponse (once; every member's Watch client is of one class). watchClient is any
 * of the pool's Watch service clients. Returns false, changing nothing, when the class is not
 * the generated one this expects.
 */
export function installWatchDecoder(watchClient: grpc.Client): boolean {
  const proto = Object.getPrototypeOf(watchClient) as Record<string | symbol, unknown> & { constructor: { service?: Record<string, BidiMethod> } };
  if (proto[installed] === true) return true;
  const def = proto.constructor.service?.Watch;
  if (!def || typeof def.requestSerialize !== 'function' || def.path !== '/etcdserverpb.Watch/Watch') return false;
  const method = function (this: grpc.Client, metadata: grpc.Metadata, options: grpc.CallOptions): grpc.ClientDuplexStream<unknown, WireWatchResponse> {
    return this.makeBidiStreamRequest(def.path, def.requestSerialize, decodeWatchResponse, metadata, options);
  };
  Object.defineProperty(proto, 'Watch', { value: method, configurable: true, writable: true });
  Object.defineProperty(proto, 'watch', { value: method, configurable: true, writable: true });
  Object.defineProperty(proto, installed, { value: true });
  return true;
}

const installed = Symbol('capstan lean watch decoder');
