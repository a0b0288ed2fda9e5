/**
 * A CA bundle read from a PEM file and kept current (kube's dynamic CA content): the file is
 * watched (and re-read every minute, as kube does, for changes a watch misses); a changed, valid
 * bundle replaces the old one and bumps its version, so that decisions made with the old one
 * (cached per connection) are dropped; a changed but invalid file is logged and the old bundle kept.
 */
import { X509Certificate } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Logger } from '../observability/logging.js';

const pemBlock = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** The CERTIFICATE blocks of PEM text, parsed; throws when there is none or one is malformed. */
export function parseCertificates(pem: string): X509Certificate[] {
  const certs: X509Certificate[] = [];
  for (const m of pem.matchAll(pemBlock)) {
    if (m[1] !== 'CERTIFICATE') continue;
    try {
      certs.push(new X509Certificate(m[0]));
    } catch (err) {
      throw new Error(`data contains an invalid certificate: ${(err as Error).message}`);
    }
  }
  if (certs.length === 0) throw new Error('data does not contain any valid RSA or ECDSA certificates');
  return certs;
}

/** How often the file is re-read even without a watch event (kube: every minute). */
const pollMs = 60_000;

/** The current CAs of one file. Read roots and version together, per decision; never mutate them. */
export class CABundle {
  private current: { pem: string; roots: readonly X509Certificate[] };
  private bumped = 0;
  private readonly listeners: Array<() => void> = [];
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pending: NodeJS.Timeout | undefined;

  private constructor(
    /** What the bundle is for, in logs ("client-ca-bundle", "request-header"). */
    readonly name: string,
    readonly path: string,
    pem: string,
    private readonly log: Logger,
  ) {
    this.current = { pem, roots: parseCertificates(pem) };
  }

  /** Reads path; throws when it is unreadable or holds no certificate (the server must not start). */
  static async fromFile(name: string, path: string, log: Logger): Promise<CABundle> {
    let pem: string;
    try {
      pem = await readFile(path, 'utf8');
    } catch (err) {
      throw new Error(`unable to load ${name} CA file ${JSON.stringify(path)}: ${(err as Error).message}`);
    }
    try {
      return new CABundle(name, path, pem, log);
    } catch (err) {
      throw new Error(`unable to load ${name} CA file ${JSON.stringify(path)}: ${(err as Error).message}`);
    }
  }

  /** The bundle's PEM text (what the TLS server advertises). */
  get pem(): string {
    return this.current.pem;
  }

  /** The trusted roots. */
  get roots(): readonly X509Certificate[] {
    return this.current.roots;
  }

  /** Changes whenever the roots change. */
  get version(): number {
    return this.bumped;
  }

  /** Calls listener after each change (synchronously, once the new roots are in place). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Starts following the file. Idempotent. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.reload(), pollMs);
    this.timer.unref();
    try {
      // The directory, not the file: an editor or kubelet replaces the file by a rename.
      const file = basename(this.path);
      this.watcher = watch(dirname(this.path), { persistent: false }, (_event, name) => {
        if (name !== null && name !== file) return;
        if (this.pending) clearTimeout(this.pending);
        this.pending = setTimeout(() => void this.reload(), 50);
        this.pending.unref();
      });
      this.watcher.on('error', () => this.watcher?.close());
    } catch {
      // No watch (an unusual file system): the poll still catches changes.
    }
  }

  /** Stops following the file. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.pending) clearTimeout(this.pending);
    this.watcher?.close();
  }

  /** Re-reads the file now; resolves once done (tests, and the watch). Never throws. */
  async reload(): Promise<void> {
    let pem: string;
    try {
      pem = await readFile(this.path, 'utf8');
    } catch (err) {
      this.log.error(`${this.name}::${this.path}: keeping the loaded CA bundle: ${(err as Error).message}`);
      return;
    }
    if (pem === this.current.pem) return;
    let roots: X509Certificate[];
    try {
      roots = parseCertificates(pem);
    } catch (err) {
      this.log.error(`${this.name}::${this.path}: keeping the loaded CA bundle: ${(err as Error).message}`);
      return;
    }
    this.current = { pem, roots };
    this.bumped++;
    this.log.info(`Loaded a new CA Bundle and Verifier for ${this.name}::${this.path}`);
    for (const l of this.listeners) l();
  }
}
