/**
 * kube's proxyutil.IsProxyableIP: the API server proxies only to global unicast addresses, never to
 * loopback, link-local, multicast or unspecified ones (which would reach the API server's own host).
 */
import { isIP } from 'node:net';

function ipv4Octets(ip: string): number[] {
  return ip.split('.').map(Number);
}

/** Whether Go's net.IP.IsGlobalUnicast holds for ip. */
export function isGlobalUnicast(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) {
    const [a = 0, b = 0] = ipv4Octets(ip);
    if (ip === '0.0.0.0' || ip === '255.255.255.255') return false;
    return a !== 127 && !(a === 169 && b === 254) && a < 224;
  }
  if (family === 6) {
    const lower = ip.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    if (mapped) return isGlobalUnicast(mapped[1] as string);
    if (lower === '::' || lower === '::1') return false;
    if (lower.startsWith('ff')) return false;
    return !/^fe[89ab]/.test(lower);
  }
  return false;
}
