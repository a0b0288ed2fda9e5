/**
 * Fake addresses of simulated nodes: node i's InternalIP is in 172.16.0.0/12 and its pods take
 * addresses from a /24 of its own in 10.128.0.0/9 (10.128.0.0/24 for node 0, 10.128.1.0/24 for
 * node 1, ...), reused once a pod is gone. Documentation-only ranges would do as well; these are
 * the ones clusters use, so the addresses look as a real cluster's.
 */

/** The InternalIP of simulated node i. */
export function simulatedHostIP(i: number): string {
  const n = i + 1;
  return `172.${16 + Math.floor(n / 65536)}.${Math.floor(n / 256) % 256}.${n % 256}`;
}

/** The pod CIDR of simulated node i. */
export function simulatedPodCIDR(i: number): string {
  return `10.${128 + Math.floor(i / 256)}.${i % 256}.0/24`;
}

/** Hands out the addresses .2 to .254 of a /24 (253 pods a node, more than kubelet's default 110). */
export class PodIPPool {
  private readonly free: number[] = [];
  private next = 2;
  private readonly prefix: string;

  constructor(cidr: string) {
    this.prefix = cidr.replace(/\.0\/24$/, '');
  }

  /** A free address, or undefined when the /24 is used up. */
  take(): string | undefined {
    const host = this.free.pop() ?? (this.next <= 254 ? this.next++ : undefined);
    return host === undefined ? undefined : `${this.prefix}.${host}`;
  }

  /** Marks an address as taken (a pod found Running when the simulation starts again). */
  reserve(ip: string): void {
    const host = Number(ip.slice(this.prefix.length + 1));
    if (!ip.startsWith(`${this.prefix}.`) || host < 2 || host > 254) return;
    const i = this.free.indexOf(host);
    if (i >= 0) this.free.splice(i, 1);
    while (this.next <= host) {
      if (this.next !== host) this.free.push(this.next);
      this.next++;
    }
  }

  /** Gives an address back. */
  release(ip: string): void {
    const host = Number(ip.slice(this.prefix.length + 1));
    if (ip.startsWith(`${this.prefix}.`) && host >= 2 && host <= 254) this.free.push(host);
  }
}
