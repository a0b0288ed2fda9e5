/**
 * kubelet's certificate file store in --cert-dir: each pair written as one PEM file
 * "<prefix>-<YYYY-MM-DD-HH-MM-SS>.pem" (certificate then key, mode 0600) and "<prefix>-current.pem"
 * a symlink to the newest; the private key of a request in flight kept in "<prefix>.key.tmp" so a
 * restart reuses it (and the CSR named after it).
 */
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A certificate with its key, as read from the store. */
export interface StoredPair {
  readonly certPem: string;
  readonly keyPem: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** The file (the -current.pem link) that kubeconfigs point at. */
  readonly path: string;
}

function pemBlocks(text: string, kind: RegExp): string[] {
  return [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----\n?/g)].filter((m) => kind.test(m[1] as string)).map((m) => (m[0].endsWith('\n') ? m[0] : `${m[0]}\n`));
}

/** The validity of the first certificate of a PEM bundle. */
export function validityOf(certPem: string): { notBefore: Date; notAfter: Date } {
  const cert = new X509Certificate(certPem);
  return { notBefore: new Date(cert.validFrom), notAfter: new Date(cert.validTo) };
}

/** Splits a combined PEM into its certificates and its key. */
export function splitPair(text: string): { certPem: string; keyPem: string } | undefined {
  const certs = pemBlocks(text, /CERTIFICATE$/);
  const keys = pemBlocks(text, /PRIVATE KEY$/);
  if (certs.length === 0 || keys.length === 0) return undefined;
  return { certPem: certs.join(''), keyPem: keys[0] as string };
}

function stamp(d: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}-${p(d.getUTCHours())}-${p(d.getUTCMinutes())}-${p(d.getUTCSeconds())}`;
}

/** The store of one pair name ("kubelet-client", "kubelet-server") in dir. */
export class CertificateStore {
  constructor(
    readonly dir: string,
    readonly prefix: string,
  ) {}

  /** The -current.pem path. */
  get currentPath(): string {
    return join(this.dir, `${this.prefix}-current.pem`);
  }

  /** The current pair, or undefined when there is none (or it cannot be read). */
  async current(): Promise<StoredPair | undefined> {
    let text: string;
    try {
      text = await readFile(this.currentPath, 'utf8');
    } catch {
      return undefined;
    }
    const pair = splitPair(text);
    if (!pair) return undefined;
    try {
      return { ...pair, ...validityOf(pair.certPem), path: this.currentPath };
    } catch {
      return undefined;
    }
  }

  /** Writes a new pair and points -current.pem at it. */
  async update(certPem: string, keyPem: string): Promise<StoredPair> {
    await mkdir(this.dir, { recursive: true, mode: 0o755 });
    const validity = validityOf(certPem);
    const file = join(this.dir, `${this.prefix}-${stamp(new Date())}.pem`);
    await writeFile(file, `${certPem.endsWith('\n') ? certPem : `${certPem}\n`}${keyPem}`, { mode: 0o600 });
    // Replace the link atomically: a reader sees the old pair or the new one, never none.
    const tmpLink = `${this.currentPath}.tmp-${process.pid}`;
    await rm(tmpLink, { force: true });
    await symlink(file, tmpLink);
    await rename(tmpLink, this.currentPath);
    return { certPem, keyPem, ...validity, path: this.currentPath };
  }

  /** The key of a request in flight: the one kept from before, or keyPem written now. */
  async pendingKey(make: () => Promise<string>): Promise<string> {
    const path = join(this.dir, `${this.prefix}.key.tmp`);
    try {
      const text = await readFile(path, 'utf8');
      if (/PRIVATE KEY/.test(text)) return text;
    } catch {
      // None kept: make one.
    }
    const key = await make();
    await mkdir(this.dir, { recursive: true, mode: 0o755 });
    await writeFile(path, key, { mode: 0o600 });
    return key;
  }

  /** Forgets the key of the request that completed. */
  async clearPendingKey(): Promise<void> {
    await rm(join(this.dir, `${this.prefix}.key.tmp`), { force: true });
  }
}
