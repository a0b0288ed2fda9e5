/**
 * Test support: a KMS v2 plugin (proto/kms/v2/api.proto) on a unix socket, keeping its key
 * encryption keys in memory (AES-256-GCM, one key per key ID). Tests rotate its key ID, make it
 * unhealthy, stop it and start it again on the same socket, and read its keys to decrypt stored
 * values by hand.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import * as grpc from '@grpc/grpc-js';
import { kmsV2Service } from '../../proto/kms/v2/load.js';

/** A running test plugin. */
export interface TestKmsPlugin {
  /** The endpoint for an EncryptionConfiguration ("unix:///..."). */
  readonly endpoint: string;
  /** The key ID Status and Encrypt report now. */
  readonly keyID: string;
  /** What Status reports as healthz ("ok" unless a test breaks it). */
  healthz: string;
  /** Calls received, by method. */
  readonly calls: { Status: number; Encrypt: number; Decrypt: number };
  /** Switches to a new key (kept with the old ones for decryption). */
  rotate(keyID: string): void;
  /** The key encryption key of a key ID. */
  keyOf(keyID: string): Buffer;
  /** Opens what the plugin encrypted under keyID. */
  open(keyID: string, ciphertext: Buffer): Buffer;
  /** Encrypts as Encrypt does, under keyID (to build values by hand). */
  seal(keyID: string, plaintext: Buffer): Buffer;
  /** Stops serving (the socket goes away). */
  stop(): Promise<void>;
  /** Serves again on the same socket. */
  start(): Promise<void>;
}

/** Starts a plugin on socketPath with key ID keyID. */
export async function startKmsPlugin(socketPath: string, keyID = 'key-1'): Promise<TestKmsPlugin> {
  const keys = new Map<string, Buffer>([[keyID, randomBytes(32)]]);
  let current = keyID;
  let server: grpc.Server | undefined;
  const calls = { Status: 0, Encrypt: 0, Decrypt: 0 };
  const seal = (id: string, plaintext: Buffer): Buffer => {
    const nonce = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', keys.get(id) as Buffer, nonce);
    return Buffer.concat([nonce, c.update(plaintext), c.final(), c.getAuthTag()]);
  };
  const open = (id: string, ct: Buffer): Buffer => {
    const key = keys.get(id);
    if (!key) throw new Error(`unknown key ID ${id}`);
    const d = createDecipheriv('aes-256-gcm', key, ct.subarray(0, 12));
    d.setAuthTag(ct.subarray(ct.length - 16));
    return Buffer.concat([d.update(ct.subarray(12, ct.length - 16)), d.final()]);
  };
  type Unary = (call: { request: Record<string, unknown> }, cb: (err: grpc.ServiceError | null, res?: unknown) => void) => void;
  const plugin: TestKmsPlugin = {
    endpoint: `unix://${socketPath}`,
    get keyID() {
      return current;
    },
    healthz: 'ok',
    calls,
    rotate(id) {
      keys.set(id, randomBytes(32));
      current = id;
    },
    keyOf: (id) => keys.get(id) as Buffer,
    open,
    seal,
    async stop() {
      const s = server;
      server = undefined;
      if (s) s.forceShutdown();
      await rm(socketPath, { force: true });
    },
    async start() {
      await rm(socketPath, { force: true });
      const s = new grpc.Server();
      const impl: Record<string, Unary> = {
        Status: (_call, cb) => {
          calls.Status++;
          cb(null, { version: 'v2', healthz: plugin.healthz, key_id: current });
        },
        Encrypt: (call, cb) => {
          calls.Encrypt++;
          cb(null, { ciphertext: seal(current, call.request.plaintext as Buffer), key_id: current, annotations: { 'kms.capstan.test': Buffer.from('test-plugin') } });
        },
        Decrypt: (call, cb) => {
          calls.Decrypt++;
          try {
            cb(null, { plaintext: open(call.request.key_id as string, call.request.ciphertext as Buffer) });
          } catch (err) {
            cb({ code: grpc.status.INVALID_ARGUMENT, details: (err as Error).message, message: (err as Error).message, name: 'Error', metadata: new grpc.Metadata() });
          }
        },
      };
      s.addService(kmsV2Service().service, impl as unknown as grpc.UntypedServiceImplementation);
      await new Promise<void>((resolve, reject) => s.bindAsync(`unix://${socketPath}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())));
      server = s;
    },
  };
  await plugin.start();
  return plugin;
}
