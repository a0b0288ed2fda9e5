/**
 * Test support: an API server (in this process) on etcd servers the test started itself (a TLS
 * cluster from hack/local-etcd-cluster.ts, a second etcd for --etcd-servers-overrides), with the
 * etcd flags given as the command line would give them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../hack/local-etcd.js';
import { createLogger } from '../../internal/observability/logging.js';
import { startServer, type RunningServer } from '../../internal/server/server.js';
import { groupOptionsFromFlags, httpsCall, testServerOptions, type TestResponse } from './server.js';

/** A server started by startServerOn. */
export interface ServerOn {
  readonly server: RunningServer;
  readonly port: number;
  request(method: string, path: string, opts?: { body?: unknown; headers?: Record<string, string> }): Promise<TestResponse>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/**
 * Starts a server on etcdServers with flags (the etcd TLS and override flags); resolves once
 * startServer has returned (not waiting for ready: tests of a failing etcd read /readyz).
 */
export async function startServerOn(etcdServers: readonly string[], flags: readonly string[] = []): Promise<ServerOn> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-test-'));
  const port = await freePort();
  const certDir = join(dir, 'certs');
  const groups = groupOptionsFromFlags([`--cert-dir=${certDir}`, ...flags]);
  const { shutdown: _shutdown, ...fromFlags } = groups;
  const options = testServerOptions(etcdServers[0] as string, port, certDir, { ...fromFlags, etcdServers });
  let server: RunningServer;
  try {
    server = await startServer(options, createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1'));
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const ca = server.certificate.ca ?? '';
  return {
    server,
    port,
    request: (method, path, opts) => httpsCall(port, ca, method, path, opts),
    async stop() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
