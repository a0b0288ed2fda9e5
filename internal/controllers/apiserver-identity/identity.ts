/**
 * The API server's identity (APIServerIdentity, on by default in 1.33): the name of its Lease in
 * kube-system, derived as kube derives it from the host name and the component, so a restarted
 * server on the same host keeps its Lease.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../../api/meta/types.js';

/** kube's IdentityLeaseComponentLabelKey. */
export const identityLabelKey = 'apiserver.kubernetes.io/identity';
/** The component value kube-apiserver writes under identityLabelKey. */
export const identityComponent = 'kube-apiserver';
/** kube's apiv1.LabelHostname. */
export const hostnameLabelKey = 'kubernetes.io/hostname';
/** kube's KubeAPIServerIdentityLeaseLabelSelector. */
export const identityLeaseSelector = `${identityLabelKey}=${identityComponent}`;
/** kube's IdentityLeaseDurationSeconds. */
export const identityLeaseDurationSeconds = 3600;
/** kube's IdentityLeaseRenewIntervalPeriod (10 s). */
export const identityLeaseRenewIntervalMs = 10_000;
/** kube's IdentityLeaseGCPeriod (an hour). */
export const identityLeaseGCPeriodMs = 3600_000;

const base32Alphabet = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32 in lower case without padding (Go's StdEncoding.WithPadding(NoPadding), lowered). */
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(value << (5 - bits)) & 31];
  return out;
}

function lengthPrefixed(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const len = Buffer.alloc(2);
  len.writeUInt16BE(bytes.length);
  return Buffer.concat([len, bytes]);
}

/**
 * kube's APIServerID: "apiserver-" and the first 16 bytes of the SHA-256 of the host name and
 * "kube-apiserver", each with a 16-bit length prefix, in lower-case base32.
 */
export function apiServerID(hostname: string): string {
  const hash = createHash('sha256').update(Buffer.concat([lengthPrefixed(hostname), lengthPrefixed(identityComponent)])).digest();
  return `apiserver-${base32(hash.subarray(0, 16))}`;
}

/** A metav1.MicroTime as kube writes it (RFC 3339 with six fractional digits, UTC). */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Whether a Lease has lapsed (kube's isLeaseExpired: no renewTime or duration counts as lapsed). */
export function isLeaseExpired(lease: KubeObject, nowMs: number): boolean {
  const spec = ((lease.spec as object | undefined) ?? {}) as { renewTime?: string; leaseDurationSeconds?: number };
  if (!spec.renewTime || spec.leaseDurationSeconds === undefined || spec.leaseDurationSeconds === null) return true;
  const renewed = Date.parse(spec.renewTime);
  if (Number.isNaN(renewed)) return true;
  return renewed + spec.leaseDurationSeconds * 1000 < nowMs;
}
