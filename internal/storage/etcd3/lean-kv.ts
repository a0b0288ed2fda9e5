/**
 * The store's KV calls (Txn in kube's shapes, Range) without the etcd3 client's message layer:
 * requests are encoded and responses decoded by hand (kv-wire.ts), and the call is made on the
 * grpc-js channel itself, below grpc-js's Client (its interceptor chain, serializer wrappers and
 * the Error it captures per call for a stack).
 *
 * Everything else is still the etcd3 client's connection pool, which each call goes through
 * (pool.exec; a Txn through pool.withConnection, sent at most once): the member picked at random,
 * its breaker, the connection wait of client.ts, the retry on another member after UNAVAILABLE
 * (for a Txn only while it reached none), the channels (and the credentials a
 * rotation gave them), auth metadata, and errors cast by the etcd3 client from the same gRPC
 * status codes and messages. A client without that pool (a stand-in in tests) or with a mocked
 * one is called through its kv API, with the same requests. The pool's Watch streams get the
 * hand decoder of watch-wire.ts.
 */
import * as grpc from '@grpc/grpc-js';
import { castGrpcError, type Etcd3, type IRangeRequest } from 'etcd3';
import {
  decodeRangeResponse,
  decodeTxnResponse,
  encodeRangeRequest,
  encodeTxnRequest,
  type WireRangeRequest,
  type WireRangeResponse,
  type WireTxnRequest,
  type WireTxnResponse,
} from './kv-wire.js';
import { installWatchDecoder } from './watch-wire.js';

/** Per-call options: the deadline of kube's request timeout. */
export interface LeanCallOptions {
  readonly deadline: Date;
}

type Callback = (err: Error | null, res?: Buffer) => void;
type Channel = ReturnType<grpc.Client['getChannel']>;
type RawMethod = (this: grpc.Client, request: Buffer, metadata: grpc.Metadata, options: grpc.CallOptions, callback: Callback) => void;

interface Pool {
  readonly hosts: ReadonlyArray<{ getServiceClient(name: string): grpc.Client }>;
  readonly mockImpl?: unknown;
  exec(service: string, method: string, payload: unknown, options?: grpc.CallOptions): Promise<unknown>;
  withConnection<T>(service: string, fn: (c: { client: grpc.Client; metadata: grpc.Metadata }) => Promise<T>, hosts: Iterator<unknown>): Promise<T>;
  shuffledHosts(): Iterator<unknown>;
}

const txnMethod = 'capstanRawTxn';
const rangeMethod = 'capstanRawRange';

/**
 * One unary call on channel: request already encoded, the response message as received. The
 * error of a failed call is grpc-js's for the same status (message "<code> <NAME>: <details>",
 * with code, details and metadata), which the pool casts as it casts every call's.
 */
function rawUnary(channel: Channel, path: string, request: Buffer, metadata: grpc.Metadata, options: grpc.CallOptions, callback: Callback): void {
  let call: ReturnType<Channel['createCall']>;
  try {
    call = channel.createCall(path, options.deadline ?? Infinity, options.host, null, options.propagate_flags);
  } catch (err) {
    callback(err as Error);
    return;
  }
  let response: Buffer | null = null;
  let settled = false;
  call.start(metadata, {
    onReceiveMetadata: () => undefined,
    onReceiveMessage: (message: Buffer) => {
      if (response !== null) call.cancelWithStatus(grpc.status.UNIMPLEMENTED, 'Too many responses received');
      response = message;
    },
    onReceiveStatus: (status: grpc.StatusObject) => {
      if (settled) return;
      settled = true;
      if (status.code === grpc.status.OK && response !== null) callback(null, response);
      else if (status.code === grpc.status.OK) callback(errorOf({ code: grpc.status.UNIMPLEMENTED, details: 'No message received', metadata: status.metadata }));
      else callback(errorOf(status));
    },
  });
  call.startRead();
  call.sendMessageWithContext({}, request);
  call.halfClose();
}

function errorOf(status: grpc.StatusObject): Error {
  return Object.assign(new Error(`${status.code} ${grpc.status[status.code]}: ${status.details}`), status);
}

/** One raw Txn on a member's KV client, its error cast as the pool casts every call's. */
function sendOnce(client: grpc.Client, payload: Buffer, metadata: grpc.Metadata, options: grpc.CallOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    (client as unknown as Record<string, RawMethod>)[txnMethod]?.call(client, payload, metadata, options, (err, res) => (err ? reject(castGrpcError(err)) : resolve(res as Buffer)));
  });
}

function rawMethod(path: string): RawMethod {
  return function (this: grpc.Client, request, metadata, options, callback) {
    rawUnary(this.getChannel(), path, request, metadata, options, callback);
  };
}

/**
 * Gives the pool's KV service clients the two raw methods (once: every member's KV client is of
 * one class), or says the pool cannot take them (closed, mocked, or not the etcd3 client's pool).
 */
function installed(pool: Pool | undefined): pool is Pool {
  if (!pool || pool.mockImpl || typeof pool.exec !== 'function' || typeof pool.withConnection !== 'function' || typeof pool.shuffledHosts !== 'function' || !Array.isArray(pool.hosts) || !pool.hosts[0]) return false;
  let proto: Record<string, unknown>;
  try {
    proto = Object.getPrototypeOf(pool.hosts[0].getServiceClient('KV')) as Record<string, unknown>;
  } catch {
    return false;
  }
  if (typeof proto[txnMethod] !== 'function') {
    Object.defineProperty(proto, txnMethod, { value: rawMethod('/etcdserverpb.KV/Txn') });
    Object.defineProperty(proto, rangeMethod, { value: rawMethod('/etcdserverpb.KV/Range') });
  }
  installWatchDecoder(pool.hosts[0].getServiceClient('Watch'));
  return true;
}

/** The store's Txn and Range calls on one etcd3 client. */
export class LeanKv {
  private readonly pool: Pool | undefined;
  /** Whether the raw methods are in place (checked at the first call, when the pool makes its clients anyway). */
  private ready = false;

  constructor(private readonly client: Etcd3) {
    this.pool = (client as unknown as { pool?: Pool }).pool;
  }

  /**
   * Puts the lean methods and the Watch stream's decoder in place (idempotent): called by each
   * call, and before a watch starts, since a watch may come first.
   */
  prepare(): void {
    this.lean();
  }

  /** The pool to call through, or undefined for the etcd3 client's own API. */
  private lean(): Pool | undefined {
    const pool = this.pool;
    if (this.ready) return pool && !pool.mockImpl ? pool : undefined;
    if (!installed(pool)) return undefined;
    this.ready = true;
    return pool;
  }

  /** kube's write transaction (see WireTxnRequest). */
  async txn(req: WireTxnRequest, options: LeanCallOptions): Promise<WireTxnResponse> {
    const pool = this.lean();
    if (pool) {
      // A write is sent once, as kube's etcd client sends it: the pool moves on to another member
      // only while the call has not reached one (not connected, passed over). The pool's retry of
      // a call that failed once sent (a timeout, a member lost mid-call) could apply it twice: a
      // create retried after it committed answers AlreadyExists for the caller's own object.
      const payload = encodeTxnRequest(req);
      const res = await pool.withConnection('KV', ({ client, metadata }) => sendOnce(client, payload, metadata, options), pool.shuffledHosts());
      return decodeTxnResponse(res);
    }
    const k = req.key;
    const success = req.put
      ? { request_put: { key: k, value: req.put.value, ...(req.put.lease !== '0' ? { lease: req.put.lease } : {}) } }
      : { request_delete_range: { key: k, prev_kv: false } };
    return await this.client.kv.txn(
      { compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: req.modRevision.toString() }], success: [success], failure: [{ request_range: { key: k } }] },
      options,
    );
  }

  /** One Range. */
  async range(req: WireRangeRequest, options: LeanCallOptions): Promise<WireRangeResponse> {
    const pool = this.lean();
    if (pool) return decodeRangeResponse((await pool.exec('KV', rangeMethod, encodeRangeRequest(req), options)) as Buffer);
    const request: IRangeRequest = {
      key: req.key,
      ...(req.rangeEnd !== undefined ? { range_end: req.rangeEnd } : {}),
      ...(req.limit ? { limit: req.limit } : {}),
      ...(req.revision ? { revision: req.revision.toString() } : {}),
      ...(req.sortOrder ? { sort_order: req.sortOrder } : {}),
      ...(req.sortTarget ? { sort_target: req.sortTarget } : {}),
      ...(req.keysOnly ? { keys_only: true } : {}),
      ...(req.countOnly ? { count_only: true } : {}),
    };
    return await this.client.kv.range(request, options);
  }
}
