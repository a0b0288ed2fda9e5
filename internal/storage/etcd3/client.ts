/**
 * The one place etcd clients are made (kube's storagebackend/factory newETCD3Client): the store's,
 * the compactor's and the metrics' client, each --etcd-servers-overrides client, and the health
 * probe's, all with the same TLS files and gRPC settings.
 *
 * - TLS: https:// servers are dialled with --etcd-cafile (the system roots without it, as kube) and
 *   the client certificate of --etcd-certfile/--etcd-keyfile; http:// servers in the clear even when
 *   the files are given (etcd's client picks credentials by scheme).
 * - Rotation: kube's etcd client reads the certificate files at each TLS handshake. Here the files
 *   are watched (as the serving certificate's are) and, when their contents change and still make a
 *   valid pair, every client's members get the new credentials: each connection made from then on
 *   (the client reconnects a member after a failure) presents the new certificate. Established
 *   connections keep theirs, as in kube.
 * - Keepalive: kube's 30s ping and 10s timeout while calls are open (its clients always watch),
 *   so a member that vanishes without closing its connections is dropped within 40s; one that
 *   closes them (stopped, killed) is noticed at the next call.
 * - Several members: each call goes to a member picked at random; a failed member, or one not
 *   connected within connectWaitMs, is skipped (the call tried on another) and after 3 failures its
 *   circuit opens for 5s, after which a call tries it again, so a member that comes back is used
 *   again.
 */
import { readFile } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import { Etcd3, GRPCUnavailableError, type IOptions } from 'etcd3';
import { watchFiles, type FileWatch } from '../../server/tls/file-watch.js';
import { MemberBreaker } from './member-breaker.js';

/** The TLS files of kube's storagebackend TransportConfig ("" when not given). */
export interface EtcdTlsFiles {
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
}

/** What one client is for: the probe's runs every call once, bounded by the check's own timeout. */
export type EtcdClientPurpose = 'storage' | 'probe';

/** kube's DialKeepAliveTime and DialKeepAliveTimeout. */
export const keepaliveTimeMs = 30_000;
export const keepaliveTimeoutMs = 10_000;

/** The etcd client's HTTP/2 flow-control window, for its connection and each stream (see client()). */
export const etcdFlowControlWindowBytes = 1 << 20;

type FaultPolicy = NonNullable<NonNullable<IOptions['faultHandling']>['global']>;
/** Runs each call once as it is (the client only ever calls execute). */
const callOnce = { execute: <T>(fn: () => T | PromiseLike<T>): Promise<T> => Promise.resolve().then(fn) } as unknown as FaultPolicy;

interface Pem {
  readonly ca: Buffer | undefined;
  readonly cert: Buffer | undefined;
  readonly key: Buffer | undefined;
}

/** gRPC keepalive: kube's values unless a test needs a member found dead sooner. */
export interface EtcdKeepalive {
  readonly timeMs: number;
  readonly timeoutMs: number;
}

/** A host of the etcd3 client's connection pool (not exported by the package). */
interface PoolHost {
  channelCredentials: grpc.ChannelCredentials;
  readonly host: string;
  faultHandling: { execute<T>(fn: () => Promise<T>): Promise<T> };
  getServiceClient(name: string): grpc.Client;
}

/**
 * How long a call waits for a member's connection to be made before trying another member. gRPC
 * has no connect timeout: without this, a call sent to a member whose process hangs (its port
 * still accepting, the TLS handshake never answered) waits for its whole deadline, where kube's
 * etcd client only sends calls to members it is connected to.
 */
export const connectWaitMs = 5000;

/**
 * Makes etcd clients and keeps their TLS credentials current. Create with load() (which reads the
 * files and throws a clear error when one cannot be read or the pair does not match), call
 * watch() to follow rotations, stop() when the server stops.
 */
export class EtcdClientFactory {
  private credentials: grpc.ChannelCredentials | undefined;
  private readonly clients = new Set<Etcd3>();
  private fileWatch: FileWatch | undefined;

  private constructor(
    private readonly files: EtcdTlsFiles,
    private pem: Pem,
    private readonly keepalive: EtcdKeepalive,
    private readonly connectWaitMs: number,
  ) {
    this.credentials = pem.ca || pem.cert ? credentialsOf(pem) : undefined;
  }

  /** Reads the TLS files (none given: a factory for plain and system-root TLS clients). */
  static async load(
    files: EtcdTlsFiles,
    keepalive: EtcdKeepalive = { timeMs: keepaliveTimeMs, timeoutMs: keepaliveTimeoutMs },
    connectWait = connectWaitMs,
  ): Promise<EtcdClientFactory> {
    return new EtcdClientFactory(files, await readPem(files), keepalive, connectWait);
  }

  /** A factory without TLS files (tests, tools): plain clients, and https ones with the system roots. */
  static plain(): EtcdClientFactory {
    return new EtcdClientFactory({ caFile: '', certFile: '', keyFile: '' }, { ca: undefined, cert: undefined, key: undefined }, { timeMs: keepaliveTimeMs, timeoutMs: keepaliveTimeoutMs }, connectWaitMs);
  }

  /** A new client for servers (one list, one scheme); closed by its owner, tracked for rotation. */
  client(servers: readonly string[], purpose: EtcdClientPurpose = 'storage'): Etcd3 {
    const secure = servers.some((s) => s.startsWith('https://'));
    const options: IOptions = {
      hosts: [...servers],
      // No dialTimeout: etcd3 1.1 documents it but never reads it. A connection that cannot be
      // made fails the call (UNAVAILABLE) and the call moves on to another member.
      // Like kube's etcd client, no cap on a response's size: a list of every pod can pass gRPC's
      // 4 MiB default, and the cache's initial list is one range.
      grpcOptions: {
        'grpc.max_receive_message_length': 2 ** 31 - 1,
        'grpc.max_send_message_length': 2 ** 31 - 1,
        'grpc.keepalive_time_ms': this.keepalive.timeMs,
        'grpc.keepalive_timeout_ms': this.keepalive.timeoutMs,
        // grpc-js's default HTTP/2 window is 64 KiB for the connection and each stream, and node
        // only reopens it as the event loop reads: under write load the watch cache's etcd watch
        // (it shares the connection with the writes) fell seconds behind, holding every pending
        // write offer and event meanwhile. kube's client (grpc-go) grows its window as needed.
        'grpc-node.flow_control_window': etcdFlowControlWindowBytes,
        // The probe's connections are its own: a check reports what its own connection met
        // (e.g. the TLS error), not the state another client left a shared connection in.
        ...(purpose === 'probe' ? { 'grpc.use_local_subchannel_pool': 1 } : {}),
      },
      faultHandling: purpose === 'probe' ? { host: () => callOnce, global: callOnce } : { host: (h: string) => new MemberBreaker(h) as unknown as FaultPolicy },
    };
    const client = new Etcd3(options);
    if (secure && this.credentials) setCredentials(client, this.credentials);
    if (purpose === 'storage' && servers.length > 1) waitForConnections(client, this.connectWaitMs);
    if (secure) {
      this.clients.add(client);
      const close = client.close.bind(client);
      client.close = () => {
        this.clients.delete(client);
        close();
      };
    }
    return client;
  }

  /** Follows changes of the TLS files (kube's one-minute re-check plus a file system watch). */
  watch(onError: (message: string) => void, intervalMs = 60_000): void {
    const paths = [this.files.caFile, this.files.certFile, this.files.keyFile].filter((f) => f !== '');
    if (paths.length === 0 || this.fileWatch) return;
    this.fileWatch = watchFiles(paths, () => void this.reload().catch((err: unknown) => onError(`etcd client certificates not reloaded: ${(err as Error).message}`)), {
      intervalMs,
    });
  }

  /** Reads the files again; when they changed, every client's members use them for new connections. */
  async reload(): Promise<boolean> {
    const pem = await readPem(this.files);
    if (same(pem.ca, this.pem.ca) && same(pem.cert, this.pem.cert) && same(pem.key, this.pem.key)) return false;
    this.pem = pem;
    this.credentials = credentialsOf(pem);
    for (const c of this.clients) setCredentials(c, this.credentials);
    return true;
  }

  /** Stops following the files (clients stay open: their owners close them). */
  stop(): void {
    this.fileWatch?.stop();
    this.fileWatch = undefined;
  }
}

function same(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.equals(b);
}

async function readOne(flag: string, path: string): Promise<Buffer | undefined> {
  if (path === '') return undefined;
  try {
    return await readFile(path);
  } catch (err) {
    throw new Error(`${flag}: ${(err as Error).message}`);
  }
}

async function readPem(files: EtcdTlsFiles): Promise<Pem> {
  const pem = {
    ca: await readOne('--etcd-cafile', files.caFile),
    cert: await readOne('--etcd-certfile', files.certFile),
    key: await readOne('--etcd-keyfile', files.keyFile),
  };
  // Node checks what gRPC would only find at the first handshake: PEM syntax and a matching pair.
  try {
    createSecureContext({ ...(pem.ca ? { ca: pem.ca } : {}), ...(pem.cert && pem.key ? { cert: pem.cert, key: pem.key } : {}) });
  } catch (err) {
    throw new Error(`etcd client TLS files (--etcd-cafile, --etcd-certfile, --etcd-keyfile): ${(err as Error).message}`);
  }
  return pem;
}

function credentialsOf(pem: Pem): grpc.ChannelCredentials {
  return grpc.credentials.createSsl(pem.ca ?? null, pem.key ?? null, pem.cert ?? null);
}

/**
 * Gives every member of client's pool the credentials its next connection is made with. The
 * etcd3 client takes credentials only as construction options, which a rotation cannot change.
 */
function setCredentials(client: Etcd3, credentials: grpc.ChannelCredentials): void {
  const hosts = (client as unknown as { pool: { hosts: PoolHost[] } }).pool.hosts;
  for (const h of hosts) h.channelCredentials = credentials;
}

/**
 * Makes each member's calls wait at most waitMs for its connection: a member not connected by
 * then fails the call as UNAVAILABLE before it is sent, which the pool takes as "try the next
 * member" and the member's circuit breaker counts. A connected member costs one state read.
 */
function waitForConnections(client: Etcd3, waitMs: number): void {
  const hosts = (client as unknown as { pool: { hosts: PoolHost[] } }).pool.hosts;
  for (const h of hosts) {
    const inner = h.faultHandling;
    h.faultHandling = {
      execute: (fn) => inner.execute(() => connected(h, waitMs).then(fn)),
    };
  }
}

async function connected(h: PoolHost, waitMs: number): Promise<void> {
  const channel = h.getServiceClient('KV').getChannel();
  let state = channel.getConnectivityState(true);
  if (state === grpc.connectivityState.READY) return;
  const deadline = Date.now() + waitMs;
  while (state !== grpc.connectivityState.READY) {
    if (state === grpc.connectivityState.SHUTDOWN) break;
    const changed = await new Promise<boolean>((resolve) => channel.watchConnectivityState(state, deadline, (err) => resolve(!err)));
    if (!changed) break;
    state = channel.getConnectivityState(true);
  }
  if (state !== grpc.connectivityState.READY) {
    throw new GRPCUnavailableError(`etcd member ${h.host}: not connected within ${waitMs}ms`);
  }
}
