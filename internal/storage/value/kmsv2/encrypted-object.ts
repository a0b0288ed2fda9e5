/**
 * kube's KMS v2 EncryptedObject (k8s.io/apiserver/.../kmsv2/v2 api.proto), the Protobuf message a
 * KMS v2 value is after its "k8s:enc:kms:v2:<provider>:" prefix:
 *   1 encryptedData (bytes), 2 keyID (string), 3 encryptedDEKSource (bytes),
 *   4 annotations (map<string, bytes>), 5 encryptedDEKSourceType (enum).
 * Written field by field in number order with sorted map keys (what kube's gogo code writes).
 */
import protobuf from 'protobufjs/minimal.js';
import { TransformError } from '../interface.js';

/** How the plaintext of encryptedDEKSource becomes the data key. */
export const EncryptedDEKSourceType = {
  /** The plaintext is the AES-GCM key itself (KMS v2 before key derivation). */
  AES_GCM_KEY: 0,
  /** The plaintext is a seed: HKDF-SHA256(seed, first 32 bytes of encryptedData) gives the AES-GCM key (kube's default since 1.29). */
  HKDF_SHA256_XNONCE_AES_GCM_SEED: 1,
} as const;

/** One stored KMS v2 value. */
export interface EncryptedObject {
  readonly encryptedData: Buffer;
  readonly keyID: string;
  readonly encryptedDEKSource: Buffer;
  readonly annotations: ReadonlyMap<string, Buffer>;
  readonly encryptedDEKSourceType: number;
}

const annotationsMaxSize = 32 * 1024;
/** The longest key ID kube accepts. */
export const keyIDMaxSize = 1024;
const encryptedDEKSourceMaxSize = 1024;

/** Protobuf bytes of o (validated first: kube never stores an invalid object). */
export function encodeEncryptedObject(o: EncryptedObject): Buffer {
  validateEncryptedObject(o);
  const w = protobuf.Writer.create();
  w.uint32((1 << 3) | 2).bytes(o.encryptedData);
  if (o.keyID) w.uint32((2 << 3) | 2).string(o.keyID);
  w.uint32((3 << 3) | 2).bytes(o.encryptedDEKSource);
  for (const k of [...o.annotations.keys()].sort()) {
    w.uint32((4 << 3) | 2).fork();
    w.uint32((1 << 3) | 2).string(k);
    w.uint32((2 << 3) | 2).bytes(o.annotations.get(k) as Buffer);
    w.ldelim();
  }
  if (o.encryptedDEKSourceType !== 0) w.uint32((5 << 3) | 0).int32(o.encryptedDEKSourceType);
  const out = w.finish();
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

function asBuffer(u: Uint8Array): Buffer {
  return Buffer.from(u.buffer, u.byteOffset, u.byteLength);
}

/** The EncryptedObject in data; throws TransformError when it is not a valid one. */
export function decodeEncryptedObject(data: Buffer): EncryptedObject {
  let encryptedData: Buffer = Buffer.alloc(0);
  let keyID = '';
  let encryptedDEKSource: Buffer = Buffer.alloc(0);
  let type = 0;
  const annotations = new Map<string, Buffer>();
  try {
    const r = protobuf.Reader.create(data);
    while (r.pos < r.len) {
      const tag = r.uint32();
      switch (tag >>> 3) {
        case 1:
          encryptedData = asBuffer(r.bytes());
          break;
        case 2:
          keyID = r.string();
          break;
        case 3:
          encryptedDEKSource = asBuffer(r.bytes());
          break;
        case 4: {
          const end = r.uint32() + r.pos;
          let k = '';
          let v: Buffer = Buffer.alloc(0);
          while (r.pos < end) {
            const t = r.uint32();
            if (t >>> 3 === 1) k = r.string();
            else if (t >>> 3 === 2) v = asBuffer(r.bytes());
            else r.skipType(t & 7);
          }
          annotations.set(k, v);
          break;
        }
        case 5:
          type = r.int32();
          break;
        default:
          r.skipType(tag & 7);
      }
    }
  } catch (err) {
    throw new TransformError(`proto: EncryptedObject: ${(err as Error).message}`);
  }
  const o: EncryptedObject = { encryptedData, keyID, encryptedDEKSource, annotations, encryptedDEKSourceType: type };
  validateEncryptedObject(o);
  return o;
}

/** Throws TransformError with kube's words when o is not an object kube would store. */
export function validateEncryptedObject(o: EncryptedObject): void {
  const t = o.encryptedDEKSourceType;
  if (t !== EncryptedDEKSourceType.AES_GCM_KEY && t !== EncryptedDEKSourceType.HKDF_SHA256_XNONCE_AES_GCM_SEED) {
    throw new TransformError(`unknown encryptedDEKSourceType: ${t}`);
  }
  if (o.encryptedData.length === 0) throw new TransformError('encrypted data is empty');
  if (o.encryptedDEKSource.length === 0) throw new TransformError('failed to validate encrypted DEK source: encrypted DEK source is empty');
  if (o.encryptedDEKSource.length > encryptedDEKSourceMaxSize) {
    throw new TransformError(`failed to validate encrypted DEK source: encrypted DEK source is ${o.encryptedDEKSource.length} bytes, which exceeds the max size of ${encryptedDEKSourceMaxSize}`);
  }
  const keyIDError = validateKeyID(o.keyID);
  if (keyIDError) throw new TransformError(`failed to validate key id: ${keyIDError}`);
  const annotationsError = validateAnnotations(o.annotations);
  if (annotationsError) throw new TransformError(`failed to validate annotations: ${annotationsError}`);
}

/** kube's key ID rule: not empty, at most 1 KiB; the reason when broken, else undefined. */
export function validateKeyID(keyID: string): string | undefined {
  if (keyID.length === 0) return 'keyID is empty';
  const size = Buffer.byteLength(keyID);
  if (size > keyIDMaxSize) return `keyID is ${size} bytes, which exceeds the max size of ${keyIDMaxSize}`;
  return undefined;
}

const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** kube's annotation rule: fully qualified domain names as keys, 32 KiB in all. */
export function validateAnnotations(annotations: ReadonlyMap<string, Buffer>): string | undefined {
  const errs: string[] = [];
  let total = 0;
  for (const [k, v] of annotations) {
    if (k.length > 253 || !dns1123Subdomain.test(k)) {
      errs.push(`annotations: Invalid value: ${JSON.stringify(k)}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`);
    } else if (k.split('.').length < 2) {
      errs.push(`annotations: Invalid value: ${JSON.stringify(k)}: should be a domain with at least two segments separated by dots`);
    }
    total += Buffer.byteLength(k) + v.length;
  }
  if (total > annotationsMaxSize) errs.push(`total size of annotations is ${total}, which exceeds the max size of ${annotationsMaxSize}`);
  if (errs.length === 0) return undefined;
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
}

/**
 * The DEK cache's key for an object's data key (kube's generateCacheKey): the source type, the
 * encrypted source, the key ID and the sorted annotations, length-prefixed, as a binary string.
 */
export function dekCacheKey(type: number, encryptedDEKSource: Buffer, keyID: string, annotations: ReadonlyMap<string, Buffer>): string {
  const parts: Buffer[] = [];
  const u32 = (n: number): Buffer => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n >>> 0);
    return b;
  };
  const prefixed = (b: Buffer): void => {
    const len = Buffer.alloc(2);
    len.writeUInt16BE(b.length);
    parts.push(len, b);
  };
  parts.push(u32(type));
  prefixed(encryptedDEKSource);
  prefixed(Buffer.from(keyID));
  if (annotations.size > 0) {
    parts.push(u32(annotations.size));
    for (const k of [...annotations.keys()].sort()) {
      prefixed(Buffer.from(k));
      prefixed(annotations.get(k) as Buffer);
    }
  }
  return Buffer.concat(parts).toString('latin1');
}
