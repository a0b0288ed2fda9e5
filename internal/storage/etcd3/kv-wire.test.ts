import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import protobuf from 'protobufjs';
import { decodeRangeResponse, decodeTxnResponse, encodeRangeRequest, encodeTxnRequest } from './kv-wire.js';

// The etcd3 client's own copy of etcd's rpc.proto: what its protobufjs path encodes and decodes.
const rpcProto = join(dirname(createRequire(import.meta.url).resolve('etcd3/package.json')), 'proto', 'rpc.proto');
const root = new protobuf.Root().loadSync(rpcProto, { keepCase: true });
const type = (name: string): protobuf.Type => root.lookupType(name);
const asObject = { longs: String, enums: String, bytes: Buffer, defaults: false, oneofs: false };
const decoded = (name: string, buf: Buffer): Record<string, unknown> => type(name).toObject(type(name).decode(buf), asObject);
const toBuf = (b: unknown): Buffer => Buffer.from(b as Uint8Array);

describe('etcd KV wire encoding', () => {
  it('encodes kube create, update (with a 64-bit lease) and delete transactions as protobufjs reads them', () => {
    const key = Buffer.from('/registry/configmaps/ns/a');
    const value = Buffer.alloc(300, 7);
    const create = decoded('etcdserverpb.TxnRequest', encodeTxnRequest({ key, modRevision: 0n, put: { value, lease: '0' } }));
    const compare = (create.compare as Array<Record<string, unknown>>)[0] as Record<string, unknown>;
    assert.equal(compare.target, 'Mod');
    assert.equal(compare.result, undefined, 'EQUAL is the default');
    assert.equal(compare.mod_revision, '0', 'the oneof member is present even at 0');
    assert.deepEqual(toBuf(compare.key), key);
    const put = ((create.success as Array<Record<string, unknown>>)[0] as { request_put: Record<string, unknown> }).request_put;
    assert.deepEqual([toBuf(put.key), toBuf(put.value), put.lease], [key, value, undefined]);
    const failure = (create.failure as Array<{ request_range: Record<string, unknown> }>)[0]?.request_range;
    assert.deepEqual(Object.keys(failure ?? {}), ['key']);
    assert.deepEqual(toBuf(failure?.key), key);

    const lease = '7587871234567890123';
    const update = decoded('etcdserverpb.TxnRequest', encodeTxnRequest({ key, modRevision: 9_007_199_254_740_993n, put: { value, lease } }));
    assert.equal((update.compare as Array<Record<string, unknown>>)[0]?.mod_revision, '9007199254740993');
    assert.equal(((update.success as Array<{ request_put: Record<string, unknown> }>)[0]?.request_put).lease, lease);

    const del = decoded('etcdserverpb.TxnRequest', encodeTxnRequest({ key, modRevision: 42n }));
    const op = (del.success as Array<Record<string, Record<string, unknown>>>)[0] ?? {};
    assert.deepEqual(Object.keys(op), ['request_delete_range']);
    assert.deepEqual(toBuf(op.request_delete_range?.key), key);
    assert.equal(op.request_delete_range?.prev_kv, undefined);
  });

  it('encodes range requests with every option the store uses', () => {
    const r = decoded(
      'etcdserverpb.RangeRequest',
      encodeRangeRequest({ key: Buffer.from('/a/'), rangeEnd: Buffer.from('/a0'), limit: 500, revision: 1234567n, sortOrder: 'Descend', sortTarget: 'Mod', keysOnly: true, countOnly: true }),
    );
    assert.deepEqual(
      { ...r, key: toBuf(r.key).toString(), range_end: toBuf(r.range_end).toString() },
      { key: '/a/', range_end: '/a0', limit: '500', revision: '1234567', sort_order: 'Descend', sort_target: 'Mod', keys_only: true, count_only: true },
    );
    assert.deepEqual(decoded('etcdserverpb.RangeRequest', encodeRangeRequest({ key: Buffer.from('k'), sortTarget: 'Key' })), { key: Buffer.from('k') });
  });

  it('decodes what etcd sends: headers, key-values with large numbers, failed transactions with their range, unknown fields', () => {
    const kv = { key: Buffer.from('/k'), create_revision: 5, mod_revision: '9007199254740993', version: 2, value: Buffer.from('v'), lease: '-2' };
    const header = { cluster_id: '18446744073709551615', member_id: 3, revision: 77, raft_term: 4 };
    const range = type('etcdserverpb.RangeResponse');
    const rangeBuf = Buffer.from(range.encode(range.fromObject({ header, kvs: [kv, { key: Buffer.from('/e') }], more: true, count: 12 })).finish());
    const res = decodeRangeResponse(rangeBuf);
    assert.deepEqual(res.header, { revision: '77' });
    assert.equal(res.more, true);
    assert.equal(res.count, '12');
    assert.deepEqual(res.kvs[0], { key: Buffer.from('/k'), create_revision: '5', mod_revision: '9007199254740993', version: '2', value: Buffer.from('v'), lease: '-2' });
    assert.deepEqual(res.kvs[1], { key: Buffer.from('/e'), create_revision: '0', mod_revision: '0', version: '0', value: Buffer.alloc(0), lease: '0' });

    const txn = type('etcdserverpb.TxnResponse');
    const failed = decodeTxnResponse(Buffer.from(txn.encode(txn.fromObject({ header, succeeded: false, responses: [{ response_range: { header, kvs: [kv], count: 1 } }] })).finish()));
    assert.equal(failed.succeeded, false);
    assert.equal(failed.responses[0]?.response_range?.kvs[0]?.mod_revision, '9007199254740993');
    const ok = decodeTxnResponse(Buffer.from(txn.encode(txn.fromObject({ header, succeeded: true, responses: [{ response_put: { header } }] })).finish()));
    assert.deepEqual(ok, { header: { revision: '77' }, succeeded: true, responses: [{}] });
    assert.deepEqual(decodeRangeResponse(Buffer.alloc(0)), { header: { revision: '0' }, kvs: [], more: false, count: '0' });
    assert.throws(() => decodeRangeResponse(rangeBuf.subarray(0, rangeBuf.length - 3)), /truncated/);
  });
});
