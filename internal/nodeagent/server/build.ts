/**
 * The node agent's servers (kubelet's ListenAndServeKubeletServer, ...ReadOnlyServer and the
 * healthz server): the secure port (config.address:config.port, TLS, authentication and
 * authorization, every endpoint incl. exec/attach/portForward upgrades), the read-only port (plain
 * HTTP without authentication: /healthz, /pods, /stats; 0 turns it off) and the healthz port
 * (healthzBindAddress:healthzPort, plain /healthz; 0 turns it off). Also starts the container log
 * rotation (containerLogMaxSize/containerLogMaxFiles), since the logs it serves are the ones it rotates.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { readFile } from 'node:fs/promises';
import type { AgentContext, PodSyncHandler, Stoppable, StreamingHandlers, SummaryProvider } from '../interface.js';
import { startLogRotation } from '../logs/rotation.js';
import { createAuthenticator } from './authn.js';
import { createAuthorizer, requestAttributes } from './authz.js';
import { serveAll, serveReadOnly, type EndpointDeps } from './handlers.js';
import { createKubeletServerMetrics } from './metrics.js';
import { writeText } from './respond.js';
import { loadOrGenerateServingPair } from './serving-cert.js';
import { bootstrapServingCertificate } from './serving-csr.js';
import { tlsServingOptions } from './tls-options.js';
import { upgradeResponse } from '../../server/serving/upgrade-response.js';

/** The running servers, with the ports they bound (0 when a server is off). */
export interface KubeletServers extends Stoppable {
  readonly port: number;
  readonly readOnlyPort: number;
  readonly healthzPort: number;
  /** Resolves once the secure port serves with a certificate (at once, except with serverTLSBootstrap). */
  readonly servingCertificateReady: Promise<void>;
}

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Serves upgrade requests (exec, attach, portForward over SPDY or WebSocket) on a response bound to their socket. */
function handleUpgrades(server: http.Server, handler: (req: IncomingMessage, res: ServerResponse) => void): void {
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => handler(req, upgradeResponse(req, socket, head)));
}

/** Starts the node agent's servers. deps.logDir is /logs/'s directory (default /var/log). */
export async function startKubeletServers(ctx: AgentContext, deps: { pods: PodSyncHandler; summary: SummaryProvider; streaming: StreamingHandlers; logDir?: string }): Promise<KubeletServers> {
  const config = ctx.config;
  const metrics = createKubeletServerMetrics();
  const endpoints: EndpointDeps = { pods: deps.pods, summary: deps.summary, streaming: deps.streaming, logDir: deps.logDir ?? '/var/log', metrics, ...(ctx.cri ? { cri: ctx.cri } : {}) };
  const authn = createAuthenticator(config.authentication, ctx.client);
  const authz = createAuthorizer(config.authorization, ctx.client);
  const fail = (res: ServerResponse, err: unknown): void => {
    ctx.log.warn(`kubelet server: ${(err as Error).message}`);
    if (!res.headersSent) writeText(res, 500, (err as Error).message);
    else res.destroy();
  };

  const secureHandler = (req: IncomingMessage, res: ServerResponse): void => {
    metrics.observe(req, res, 'readwrite');
    void (async () => {
      const url = new URL(req.url ?? '/', 'https://kubelet');
      const who = await authn.authenticate(req);
      if ('error' in who) {
        ctx.log.v(2, `Unable to authenticate the request: ${who.error}`);
        return writeText(res, 401, 'Unauthorized');
      }
      const checks = requestAttributes(who.user, req.method ?? 'GET', url.pathname, ctx.nodeName);
      let allowed = false;
      for (const attrs of checks) {
        try {
          allowed = await authz.authorize(attrs);
        } catch (err) {
          ctx.log.warn(`Authorization error: ${(err as Error).message}`);
          return writeText(res, 500, `Authorization error (user=${attrs.user.username}, verb=${attrs.verb}, resource=${attrs.resource}, subresource=${attrs.subresource})`);
        }
        if (allowed) break;
      }
      if (!allowed) {
        const attrs = checks[checks.length - 1] as (typeof checks)[number];
        return writeText(res, 403, `Forbidden (user=${attrs.user.username}, verb=${attrs.verb}, resource=${attrs.resource}, subresource=${attrs.subresource})`);
      }
      await serveAll(req, res, url, endpoints);
    })().catch((err) => fail(res, err));
  };

  const clientCA = config.authentication.x509.clientCAFile ? await readFile(config.authentication.x509.clientCAFile) : undefined;
  const tlsOptions = tlsServingOptions(config.tlsMinVersion, config.tlsCipherSuites);
  const bootstrap = config.serverTLSBootstrap && !config.tlsCertFile && !config.tlsPrivateKeyFile;
  const pair = bootstrap ? undefined : await loadOrGenerateServingPair({ ...(config.tlsCertFile ? { tlsCertFile: config.tlsCertFile } : {}), ...(config.tlsPrivateKeyFile ? { tlsPrivateKeyFile: config.tlsPrivateKeyFile } : {}), certDir: config.certDir, hostName: ctx.nodeName });
  const secure = https.createServer({ ...tlsOptions, ...(pair ? { cert: pair.cert, key: pair.key } : {}), ...(clientCA ? { ca: clientCA, requestCert: true, rejectUnauthorized: false } : {}) }, secureHandler);
  handleUpgrades(secure, secureHandler);
  const servers: http.Server[] = [];
  const stoppers: Stoppable[] = [];
  try {
    const port = await listen(secure, config.port, config.address);
    servers.push(secure);
    let readOnlyPort = 0;
    if (config.readOnlyPort > 0) {
      const readOnly = http.createServer((req, res) => {
        metrics.observe(req, res, 'readonly');
        void (async () => {
          const url = new URL(req.url ?? '/', 'http://kubelet');
          if (!(await serveReadOnly(req, res, url, endpoints))) writeText(res, 404, '404 page not found\n');
        })().catch((err) => fail(res, err));
      });
      readOnlyPort = await listen(readOnly, config.readOnlyPort, config.address);
      servers.push(readOnly);
    }
    let healthzPort = 0;
    if (config.healthzPort > 0) {
      const healthz = http.createServer((req, res) => {
        const path = new URL(req.url ?? '/', 'http://kubelet').pathname;
        if (path === '/healthz') writeText(res, 200, 'ok');
        else writeText(res, 404, '404 page not found\n');
      });
      healthzPort = await listen(healthz, config.healthzPort, config.healthzBindAddress);
      servers.push(healthz);
    }
    if (ctx.cri && config.containerLogMaxSize > 0) stoppers.push(startLogRotation(ctx.cri, { maxSize: config.containerLogMaxSize, maxFiles: config.containerLogMaxFiles }, ctx.log));
    const servingCertificateReady = bootstrap
      ? bootstrapServingCertificate(ctx).then((issued) => {
          secure.setSecureContext({ ...tlsOptions, cert: issued.cert, key: issued.key, ...(clientCA ? { ca: clientCA } : {}) });
          ctx.log.info('Serving with the certificate the API server issued');
        })
      : Promise.resolve();
    servingCertificateReady.catch((err: unknown) => ctx.log.error(`Failed to obtain the serving certificate: ${(err as Error).message}`));
    ctx.log.info(`Starting to listen on ${config.address}:${port}`);
    return {
      port,
      readOnlyPort,
      healthzPort,
      servingCertificateReady,
      async stop() {
        for (const s of stoppers) await s.stop();
        await Promise.all(servers.map(close));
      },
    };
  } catch (err) {
    await Promise.all(servers.map(close));
    throw err;
  }
}
