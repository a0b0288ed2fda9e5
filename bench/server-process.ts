/**
 * A benchmark server child: either the Capstan API server (mode api) against a given etcd, or a
 * bare node:https server answering every request with one fixed body (mode bare, the baseline of
 * the GET benchmark). Spawned by server-handle.ts with --expose-gc and an IPC channel; it samples
 * its own memory every few milliseconds so that peaks are seen even when the runner is busy, and
 * records CPU profiles of measured phases on request.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { Session } from 'node:inspector/promises';
import { freePort } from '../hack/local-etcd.js';
import { createLogger } from '../internal/observability/logging.js';
import { loadServingCertificate } from '../internal/server/certs.js';
import type { ServerOptions } from '../internal/server/options/flags.js';
import { startServer } from '../internal/server/server.js';
import { groupOptionsFromFlags, testServerOptions } from '../test/support/server.js';
import type { ChildRequest, MemorySample, PeakReport, ReadyMessage, ServerChildConfig } from './ipc.js';

const config = JSON.parse(process.env.BENCH_SERVER ?? '{}') as ServerChildConfig;
const gc = (globalThis as { gc?: () => void }).gc;

function sample(): MemorySample {
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers };
}

function fullGc(): void {
  if (!gc) throw new Error('server-process needs --expose-gc');
  // Twice: the first pass can leave objects that only the second finds unreachable (weak refs).
  gc();
  gc();
}

/** Resets the kernel's peak-RSS counter; false where /proc does not allow it. */
function resetHwm(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

function readHwm(): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

let baseline = sample();
let peakHeapExternal = 0;
let peakRss = 0;
let samples = 0;
let hwmReset = false;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  samples++;
  if (m.heapUsed + m.external > peakHeapExternal) peakHeapExternal = m.heapUsed + m.external;
  if (m.rss > peakRss) peakRss = m.rss;
}, config.sampleIntervalMs ?? 10);
sampler.unref();

// The V8 CPU profiler (what node --cpu-prof uses), started and stopped around a measured phase
// so that start-up and seeding do not dilute the profile.
let profiler: Session | undefined;

async function profileStart(): Promise<void> {
  profiler = new Session();
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.setSamplingInterval', { interval: 500 });
  await profiler.post('Profiler.start');
}

async function profileStop(path: string): Promise<void> {
  if (!profiler) return;
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(path, JSON.stringify(profile));
  profiler.disconnect();
  profiler = undefined;
}

let bareBody = Buffer.from('{}');
let bareType = 'application/json';

async function main(): Promise<void> {
  const port = await freePort();
  let stop: () => Promise<void>;
  let ca: string;
  if (config.mode === 'bare') {
    const cert = await loadServingCertificate({ certDir: config.certDir, bindAddress: '127.0.0.1' });
    const server = createServer({ cert: cert.cert, key: cert.key, minVersion: 'TLSv1.2' }, (_req, res) => {
      res.writeHead(200, { 'content-type': bareType, 'content-length': bareBody.length });
      res.end(bareBody);
    });
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    ca = cert.ca ?? cert.cert;
    stop = async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    };
  } else {
    const fromFlags = config.flags && config.flags.length > 0 ? groupOptionsFromFlags(config.flags) : {};
    const options = testServerOptions(config.etcdEndpoint, port, config.certDir, { ...fromFlags, ...((config.extra ?? {}) as Partial<ServerOptions>) });
    const server = await startServer(options, createLogger(0, true));
    await server.ready;
    ca = server.certificate.ca ?? server.certificate.cert;
    stop = () => server.stop();
  }
  // The runner went away (crashed or was interrupted): do not outlive it.
  process.on('disconnect', () => {
    void stop().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  });
  const ready: ReadyMessage = { type: 'ready', port, ca, pid: process.pid };
  process.send?.(ready);

  process.on('message', (raw) => {
    const msg = raw as ChildRequest;
    const reply = (body: Record<string, unknown>): void => {
      process.send?.({ id: msg.id, ...body });
    };
    switch (msg.type) {
      case 'memory':
        if (msg.gc) fullGc();
        reply({ memory: sample() });
        return;
      case 'mark':
        fullGc();
        baseline = sample();
        peakHeapExternal = baseline.heapUsed + baseline.external;
        peakRss = baseline.rss;
        samples = 0;
        hwmReset = resetHwm();
        reply({ memory: baseline });
        return;
      case 'peak': {
        const hwm = hwmReset ? readHwm() : undefined;
        const now = sample();
        const report: PeakReport = {
          baseline,
          peakHeapExternal: Math.max(peakHeapExternal, now.heapUsed + now.external),
          peakRss: Math.max(peakRss, now.rss),
          ...(hwm !== undefined ? { hwmRss: hwm } : {}),
          samples,
          now,
        };
        reply({ peak: report });
        return;
      }
      case 'set-body':
        bareBody = Buffer.from(msg.body);
        bareType = msg.contentType;
        reply({});
        return;
      case 'profile-start':
        void profileStart().then(() => reply({}), (err: unknown) => reply({ error: String(err) }));
        return;
      case 'profile-stop':
        void profileStop(msg.path).then(() => reply({}), (err: unknown) => reply({ error: String(err) }));
        return;
      case 'stop':
        void stop().then(() => {
          reply({});
          // A clean exit, so that --cpu-prof writes its profile.
          setTimeout(() => process.exit(0), 50);
        });
        return;
    }
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`server-process: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
