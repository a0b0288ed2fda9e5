import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { decodeWatchResponse, installWatchDecoder } from './watch-wire.js';

// The etcd3 client's proto and its proto-loader options: the deserializer this one replaces.
const rpcProto = join(dirname(createRequire(import.meta.url).resolve('etcd3/package.json')), 'proto', 'rpc.proto');
const definition = loadSync(rpcProto, { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
const watchMethod = (definition['etcdserverpb.Watch'] as Record<string, { responseDeserialize(b: Buffer): unknown }>).Watch;
const root = new protobuf.Root().loadSync(rpcProto, { keepCase: true });
const WatchResponse = root.lookupType('etcdserverpb.WatchResponse');
const encode = (o: Record<string, unknown>): Buffer => Buffer.from(WatchResponse.encode(WatchResponse.fromObject(o)).finish());

describe('etcd WatchResponse decoding', () => {
  it('gives the object the etcd3 client decodes, for created, event, compacted and canceled responses', () => {
    const header = { cluster_id: '18446744073709551615', member_id: '123', revision: '9007199254740993', raft_term: '7' };
    const kv = { key: Buffer.from('/registry/configmaps/a'), create_revision: 3, mod_revision: 9, version: 2, value: Buffer.alloc(1500, 1), lease: '7587871234567890123' };
    const messages = [
      Buffer.alloc(0),
      encode({ header, watch_id: 0, created: true }),
      encode({ header, watch_id: 4, events: [{ type: 0, kv }, { type: 1, kv: { key: Buffer.from('/d'), mod_revision: 10 }, prev_kv: kv }] }),
      encode({ header, watch_id: 4, canceled: true, compact_revision: 8 }),
      encode({ header, watch_id: 5, canceled: true, cancel_reason: 'etcdserver: mvcc: required revision is a future revision — é' }),
      encode({ watch_id: -1, fragment: true }),
    ];
    for (const m of messages) assert.deepStrictEqual(decodeWatchResponse(m), watchMethod.responseDeserialize(m));
  });

  it('installs once on a generated Watch client class and leaves any other class alone', () => {
    const Watch = grpc.loadPackageDefinition(definition).etcdserverpb as unknown as Record<string, new (a: string, c: grpc.ChannelCredentials) => grpc.Client>;
    const WatchClient = Watch.Watch as new (a: string, c: grpc.ChannelCredentials) => grpc.Client;
    const client = new WatchClient('127.0.0.1:1', grpc.credentials.createInsecure());
    try {
      const before = (client as unknown as { watch: unknown }).watch;
      assert.equal(installWatchDecoder(client), true);
      assert.notEqual((client as unknown as { watch: unknown }).watch, before);
      const installed = (client as unknown as { watch: unknown }).watch;
      assert.equal(installWatchDecoder(client), true);
      assert.equal((client as unknown as { watch: unknown }).watch, installed, 'installed once');
      const other = new grpc.Client('127.0.0.1:1', grpc.credentials.createInsecure());
      assert.equal(installWatchDecoder(other), false);
      other.close();
    } finally {
      client.close();
    }
  });
});
