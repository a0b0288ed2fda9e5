/**
 * resourceVersion parsing and etcd key-range helpers. A resourceVersion is an etcd revision: a
 * decimal uint64. Only the storage layer interprets it; everything above passes strings through.
 */
import { StorageError } from '../errors.js';

const maxUint64 = (1n << 64n) - 1n;

/** Parses a resourceVersion ("" and "0" are 0n); throws StorageError InvalidArgument with kube's text. */
export function parseResourceVersion(rv: string): bigint {
  if (rv === '' || rv === '0') return 0n;
  let reason: string | undefined;
  if (!/^[0-9]+$/.test(rv)) reason = `strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`;
  else if (BigInt(rv) > maxUint64) reason = `strconv.ParseUint: parsing ${JSON.stringify(rv)}: value out of range`;
  if (reason) {
    throw new StorageError(
      'InvalidArgument',
      '',
      `invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(rv)}: ${reason}`,
    );
  }
  return BigInt(rv);
}

/** The smallest key greater than every key with this prefix (etcd's range_end for a prefix). */
export function prefixEnd(prefix: string): Buffer {
  const buf = Buffer.from(prefix);
  for (let i = buf.length - 1; i >= 0; i--) {
    if ((buf[i] as number) < 0xff) {
      const end = Buffer.from(buf.subarray(0, i + 1));
      end[i] = (end[i] as number) + 1;
      return end;
    }
  }
  return Buffer.from([0]);
}
