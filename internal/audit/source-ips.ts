/**
 * A request's source IPs as kube's utilnet.SourceIPs lists them for audit: the valid addresses of
 * X-Forwarded-For in order, then X-Real-Ip unless already listed, then the connection's remote
 * address unless it is already the last one. Addresses are written as Go's net.IP prints them
 * (IPv4 dotted decimal, IPv4-mapped IPv6 as IPv4, IPv6 in its RFC 5952 form).
 */
import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';

const plainIPv4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function sloppyIPv4(s: string): string | undefined {
  // k8s.io/utils/net.ParseIPSloppy: decimal parts, leading zeros allowed (read as decimal).
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d+$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out.join('.');
}

/** Parses an address as ParseIPSloppy does and prints it as net.IP.String(); undefined when invalid. */
export function normalizeIP(s: string): string | undefined {
  if (plainIPv4.test(s)) return s;
  // The usual peer of a dual-stack socket: an IPv4-mapped address, printed as IPv4.
  if (s.startsWith('::ffff:') && plainIPv4.test(s.slice(7))) return s.slice(7);
  if (s.includes(':')) {
    if (s.includes('%') || !isIPv6(s)) return undefined;
    const host = new URL(`http://[${s}]/`).hostname.slice(1, -1);
    // An IPv4-mapped address (::ffff:a.b.c.d) prints as IPv4.
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
    if (mapped) {
      const hi = parseInt(mapped[1] as string, 16);
      const lo = parseInt(mapped[2] as string, 16);
      return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
    }
    return host;
  }
  return sloppyIPv4(s);
}

function firstHeader(v: string | string[] | undefined): string {
  if (v === undefined) return '';
  return Array.isArray(v) ? (v[0] ?? '') : v;
}

/** The source IPs of req, in kube's order (see the file comment). */
export function sourceIPs(req: IncomingMessage): string[] {
  const out: string[] = [];
  const forwarded = firstHeader(req.headers['x-forwarded-for']);
  if (forwarded !== '') {
    for (const part of forwarded.split(',')) {
      const ip = normalizeIP(part.trim());
      if (ip !== undefined) out.push(ip);
    }
  }
  const realIp = firstHeader(req.headers['x-real-ip']);
  if (realIp !== '') {
    const ip = normalizeIP(realIp);
    if (ip !== undefined && !out.includes(ip)) out.push(ip);
  }
  const remote = req.socket?.remoteAddress;
  const remoteIp = remote ? normalizeIP(remote) : undefined;
  if (remoteIp !== undefined && (out.length === 0 || out[out.length - 1] !== remoteIp)) out.push(remoteIp);
  return out;
}
