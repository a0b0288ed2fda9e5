/**
 * The HTTPS server's TLS, kept current without a restart (kube's DynamicServingCertificateController):
 * the default certificate, the --tls-sni-cert-key certificates, the minimum version, the cipher
 * list and the client CAs make one set of secure contexts, rebuilt whenever a file or the CA list
 * changes. A new pair that fails to load is logged and the pair served before it stays.
 *
 * How the contexts reach connections: the default one through server.setSecureContext (new
 * connections use it, open ones keep theirs); SNI ones through the SNICallback; for a client that
 * sends no server name, an SNI certificate whose explicit pattern is the IP it connected to is
 * chosen per connection, by setting the context the server is about to hand the new socket.
 * Every context carries the client CA list, so client certificates are asked for and checked the
 * same whichever certificate answers; the authenticators judge them (rejectUnauthorized is off).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { createSecureContext, type SecureContext, type SecureContextOptions, type Server, type TlsOptions } from 'node:tls';
import type { Logger } from '../../observability/logging.js';
import { checkCertKeyPair, readCertKeyPair, type CertKeyPair } from './cert-key-pair.js';
import { opensslCipherList } from './cipher-suites.js';
import { watchFiles, type FileWatch } from './file-watch.js';
import type { NamedCertKey } from './named-cert-key.js';
import { SniNameMap } from './sni-names.js';
import { belowTls12, nodeTlsVersion, type TlsVersionName } from './tls-version.js';

/** What the server serves with. */
export interface ServingTlsConfig {
  /** The default pair: --tls-cert-file/--tls-private-key-file, or the generated pair in --cert-dir. */
  readonly certFile: string;
  readonly keyFile: string;
  /** --tls-sni-cert-key, in flag order. */
  readonly sniCertKeys: readonly NamedCertKey[];
  readonly minVersion: TlsVersionName;
  /** --tls-cipher-suites (Go names, already validated); empty: Go's defaults. */
  readonly cipherSuites: readonly string[];
  /**
   * The client CA bundles (PEM) to ask client certificates for; empty: none are asked for. Called
   * at start and at every check, so a refreshed list reaches new connections; must be cheap.
   */
  readonly clientCAs: () => readonly string[];
  readonly log: Logger;
  /** The periodic re-check of files and CAs (kube: one minute). */
  readonly refreshIntervalMs?: number;
  /** False: no file system watch, the periodic re-check only. */
  readonly watchFiles?: boolean;
}

/**
 * One session ID context for every context: a session resumed after the SNI callback switched
 * contexts (with client certificates requested) must find the same one, or OpenSSL refuses it.
 */
const sessionIdContext = createHash('sha1').update('capstan-apiserver').digest('hex').slice(0, 32);

/**
 * tls.Server's own fields read for every new connection (Node 12 to 22): the default context the
 * socket starts with, and whether it asks for a client certificate.
 */
type WithSharedCreds = Server & { _sharedCreds?: SecureContext; requestCert: boolean };

/** The live TLS configuration of one server. */
export class ServingTls {
  private sniMap: SniNameMap<SecureContext>;
  private caKey: string;
  private server: WithSharedCreds | undefined;
  private defaultContext: SecureContext | undefined;
  private watch: FileWatch | undefined;
  private refreshing: Promise<void> | undefined;
  private again = false;
  /** Per pair, the content last refused (logged once, not at every check). */
  private readonly refused = new Map<string, string>();
  private readonly ciphers: string;

  private cas: readonly string[] = [];

  private constructor(
    private readonly cfg: ServingTlsConfig,
    private defaultPair: CertKeyPair,
    private sniPairs: readonly CertKeyPair[],
  ) {
    this.ciphers = opensslCipherList(cfg.cipherSuites, belowTls12(cfg.minVersion));
    // Contexts without client CAs: proves the pairs, version and ciphers make contexts, before
    // anything else starts. serverOptions() rebuilds them with the CAs of that moment.
    this.sniMap = this.build(defaultPair, sniPairs, []).sniMap;
    this.caKey = '';
  }

  /**
   * Loads every pair and checks that they make contexts; throws (the server must not start) when
   * one is missing or invalid. Does not call clientCAs yet.
   */
  static async load(cfg: ServingTlsConfig): Promise<ServingTls> {
    const def = await readCertKeyPair(cfg.certFile, cfg.keyFile).catch((err: Error) => {
      throw new Error(`failed to load serving certificate and key: ${err.message}`);
    });
    const sni = await Promise.all(
      cfg.sniCertKeys.map((n) =>
        readCertKeyPair(n.certFile, n.keyFile).catch((err: Error) => {
          throw new Error(`failed to load SNI cert and key: ${err.message}`);
        }),
      ),
    );
    return new ServingTls(cfg, def, sni);
  }

  /**
   * Options for https.createServer: the default context's material, the SNI callback, client
   * certificate requests, with the client CAs clientCAs() gives now. Call once, then attach().
   */
  serverOptions(): TlsOptions {
    const cas = [...this.cfg.clientCAs()];
    if (cas.join('\n') !== this.caKey) {
      this.sniMap = this.build(this.defaultPair, this.sniPairs, cas).sniMap;
      this.cas = cas;
      this.caKey = cas.join('\n');
    }
    return {
      ...this.contextOptions(this.defaultPair, this.cas),
      // A server name matching nothing gets the default certificate, also when the connection
      // started with the context of an IP pattern (IPs select only for clients without SNI).
      SNICallback: (servername, cb) => cb(null, this.sniMap.match(servername) ?? (this.sniMap.hasAddresses ? this.defaultContext : undefined)),
      requestCert: this.cas.length > 0,
      rejectUnauthorized: false,
    };
  }

  /** Takes over server (made with serverOptions()) and starts watching the files. Call once. */
  attach(server: Server): void {
    this.server = server as WithSharedCreds;
    this.defaultContext = this.server._sharedCreds;
    server.prependListener('connection', (socket: Socket) => this.chooseByAddress(socket));
    if (this.sniMap.hasAddresses && this.defaultContext === undefined) {
      this.cfg.log.warn('--tls-sni-cert-key: IP patterns cannot be served to clients without SNI on this Node version; they get the default certificate');
    }
    const files = [this.cfg.certFile, this.cfg.keyFile, ...this.cfg.sniCertKeys.flatMap((n) => [n.certFile, n.keyFile])];
    this.watch = watchFiles(files, () => void this.refresh(), {
      intervalMs: this.cfg.refreshIntervalMs ?? 60_000,
      ...(this.cfg.watchFiles === false ? { watch: false } : {}),
    });
  }

  /** The default certificate served now (PEM chain). */
  get certificate(): string {
    return this.defaultPair.cert;
  }

  /**
   * Re-reads the files and the client CA list, and rebuilds the contexts when something changed.
   * Never throws; concurrent calls share one run (and one more follows when asked meanwhile).
   */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        try {
          await this.reloadOnce();
        } catch (err) {
          this.cfg.log.error(`reloading the serving TLS configuration failed, keeping the current one: ${(err as Error).message}`);
        }
      } while (this.again);
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** Stops watching. */
  stop(): void {
    this.watch?.stop();
  }

  private chooseByAddress(socket: Socket): void {
    const server = this.server;
    if (!this.sniMap.hasAddresses || !server || this.defaultContext === undefined) return;
    server._sharedCreds = this.sniMap.forAddress(socket.localAddress ?? '') ?? this.defaultContext;
  }

  private contextOptions(pair: CertKeyPair, cas: readonly string[]): SecureContextOptions {
    return {
      cert: pair.cert,
      key: pair.key,
      minVersion: nodeTlsVersion(this.cfg.minVersion),
      ciphers: this.ciphers,
      honorCipherOrder: true,
      sessionIdContext,
      ...(cas.length > 0 ? { ca: [...cas] } : {}),
    };
  }

  /** Makes every context (throws when one cannot be made: nothing is changed then). */
  private build(def: CertKeyPair, sni: readonly CertKeyPair[], cas: readonly string[]): { defaultOptions: SecureContextOptions; sniMap: SniNameMap<SecureContext> } {
    const defaultOptions = this.contextOptions(def, cas);
    createSecureContext(defaultOptions);
    const sniMap = new SniNameMap(
      sni.map((p, i) => ({ certPem: p.cert, names: this.cfg.sniCertKeys[i]?.names ?? [], value: createSecureContext(this.contextOptions(p, cas)) })),
    );
    return { defaultOptions, sniMap };
  }

  private async reloadOnce(): Promise<void> {
    const def = await this.reloadPair('serving-cert', this.defaultPair);
    const sni = await Promise.all(this.sniPairs.map((p) => this.reloadPair('sni-serving-cert', p)));
    let cas: readonly string[];
    try {
      cas = [...this.cfg.clientCAs()];
    } catch (err) {
      this.cfg.log.error(`reading the client CA bundles failed, keeping the current ones: ${(err as Error).message}`);
      cas = this.cas;
    }
    const caKey = cas.join('\n');
    if (def === this.defaultPair && sni.every((p, i) => p === this.sniPairs[i]) && caKey === this.caKey) return;
    let built;
    try {
      built = this.build(def, sni, cas);
    } catch (err) {
      this.cfg.log.error(`not serving the new TLS configuration, keeping the current one: ${(err as Error).message}`);
      return;
    }
    this.defaultPair = def;
    this.sniPairs = sni;
    this.cas = cas;
    this.caKey = caKey;
    this.sniMap = built.sniMap;
    const server = this.server;
    if (server) {
      server.setSecureContext(built.defaultOptions);
      if (this.defaultContext !== undefined) this.defaultContext = server._sharedCreds;
      server.requestCert = cas.length > 0;
    }
  }

  /** The pair's new content when it changed and is valid; else the current pair (an invalid one is logged once). */
  private async reloadPair(kind: string, current: CertKeyPair): Promise<CertKeyPair> {
    const name = `${kind}::${current.certFile}::${current.keyFile}`;
    let cert: string;
    let key: string;
    try {
      [cert, key] = await Promise.all([readFile(current.certFile, 'utf8'), readFile(current.keyFile, 'utf8')]);
    } catch (err) {
      this.refuse(name, (err as Error).message, `failed to read "${name}", serving the previous pair: ${(err as Error).message}`);
      return current;
    }
    if (cert === current.cert && key === current.key) return current;
    try {
      const pair = checkCertKeyPair(current.certFile, current.keyFile, cert, key);
      this.refused.delete(name);
      this.cfg.log.info(`Loaded a new cert/key pair "${name}"`);
      return pair;
    } catch (err) {
      this.refuse(name, cert + key, `not loading an invalid new certificate/key pair "${name}", serving the previous pair: ${(err as Error).message}`);
      return current;
    }
  }

  private refuse(name: string, what: string, message: string): void {
    if (this.refused.get(name) === what) return;
    this.refused.set(name, what);
    this.cfg.log.error(message);
  }
}
