/**
 * Test support: a small extension API server on loopback HTTPS, as an aggregated server behind
 * Capstan would be. It has its own serving CA (the APIService's caBundle), and trusts a request
 * only with a client certificate from the requestheader CA whose CN is an allowed name (the
 * front-proxy client certificate Capstan presents); it reads the user from X-Remote-User,
 * X-Remote-Group and X-Remote-Extra-* (recorded for the test to check). It serves the group
 * wardle.example.com/v1alpha1 with a namespaced resource flunders (get, list, create; kept in
 * memory), legacy and aggregated discovery, /openapi/v2 and /openapi/v3, a redirecting path
 * .../flunders/redirect, and an upgrade to an "echo" protocol on any path.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import assert from 'node:assert/strict';
import { createCertificateAuthority, issueCertificate, type CertificateAuthority } from '../../internal/server/pki.js';
import type { ServerFixture } from './server.js';

/** The identity one request to the extension server carried. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly clientCN?: string;
  readonly user?: string;
  readonly uid?: string;
  readonly groups: string[];
  /** Extra header names (lower-cased, after the prefix, still escaped) and their values. */
  readonly extra: Record<string, string[]>;
  readonly authorization?: string;
}

/** The running extension server. */
export interface ExtensionApiServer {
  readonly port: number;
  readonly host: string;
  readonly ca: CertificateAuthority;
  /** base64 of the serving CA's PEM, for spec.caBundle. */
  readonly caBundle: string;
  readonly seen: SeenRequest[];
  /** Stops listening (connections are closed); start() listens again on the same address. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** Options of the extension server. */
export interface ExtensionApiServerOptions {
  /** PEM of the CA the front proxy's client certificate must chain to. */
  readonly requestHeaderCA: string;
  /** CNs allowed (empty: any). */
  readonly allowedNames: readonly string[];
  /** Names its serving certificate is valid for (e.g. "api.wardle.svc"). */
  readonly dnsNames: readonly string[];
  /** The address it listens on (default 127.0.0.1). */
  readonly host?: string;
  /** Answer aggregated discovery (default true); false: legacy only. */
  readonly aggregatedDiscovery?: boolean;
}

const group = 'wardle.example.com';
const version = 'v1alpha1';
const gv = `${group}/${version}`;

const flunderSchema = {
  description: 'Flunder is a test resource of the wardle extension server.',
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: { type: 'object', properties: { reference: { type: 'string', description: 'What the flunder refers to.' } } },
  },
  'x-kubernetes-group-version-kind': [{ group, version, kind: 'Flunder' }],
};

function json(res: ServerResponse, code: number, body: unknown, contentType = 'application/json'): void {
  res.writeHead(code, { 'content-type': contentType }).end(JSON.stringify(body));
}

function status(res: ServerResponse, code: number, reason: string, message: string): void {
  json(res, code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
}

function headerValues(req: IncomingMessage, name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) if ((req.rawHeaders[i] as string).toLowerCase() === name) out.push(req.rawHeaders[i + 1] as string);
  return out;
}

/** Starts the extension server. */
export async function startExtensionApiServer(options: ExtensionApiServerOptions): Promise<ExtensionApiServer> {
  const ca = await createCertificateAuthority('test-extension-apiserver-ca');
  const host = options.host ?? '127.0.0.1';
  const serving = await issueCertificate(ca, { commonName: 'api.wardle', usage: 'server', ips: ['127.0.0.1', ...(host !== '127.0.0.1' ? [host] : [])], dns: ['localhost', ...options.dnsNames] });
  const requestHeaderCA = new X509Certificate(options.requestHeaderCA);
  const seen: SeenRequest[] = [];
  const flunders = new Map<string, Record<string, unknown>>();
  let rv = 1;

  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const url = new URL(req.url ?? '/', 'https://x');
    const path = url.pathname;
    const socket = req.socket as TLSSocket;
    const raw = socket.getPeerCertificate?.(true);
    const peer = raw?.raw ? new X509Certificate(raw.raw) : undefined;
    const cn = raw?.subject?.CN ? String(raw.subject.CN) : undefined;
    const extra: Record<string, string[]> = {};
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = (req.rawHeaders[i] as string).toLowerCase();
      if (name.startsWith('x-remote-extra-')) (extra[name.slice('x-remote-extra-'.length)] ??= []).push(req.rawHeaders[i + 1] as string);
    }
    const user = req.headers['x-remote-user'] as string | undefined;
    seen.push({
      method: req.method ?? '',
      path,
      ...(cn ? { clientCN: cn } : {}),
      ...(user ? { user } : {}),
      ...(req.headers['x-remote-uid'] ? { uid: String(req.headers['x-remote-uid']) } : {}),
      groups: headerValues(req, 'x-remote-group'),
      extra,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    });
    // The front proxy is trusted only through its certificate, as kube's request-header authenticator does.
    const trusted = peer !== undefined && peer.checkIssued(requestHeaderCA) && peer.verify(requestHeaderCA.publicKey) && (options.allowedNames.length === 0 || options.allowedNames.includes(cn ?? ''));
    if (!trusted || !user) return status(res, 401, 'Unauthorized', 'Unauthorized');

    if (path === '/apis' || path === '/apis/') {
      const accept = String(req.headers.accept ?? '');
      if (options.aggregatedDiscovery !== false && accept.includes('as=APIGroupDiscoveryList')) {
        const v = accept.includes('v=v2;') || accept.includes('v=v2,') || accept.endsWith('v=v2') ? 'v2' : 'v2beta1';
        return json(
          res,
          200,
          {
            kind: 'APIGroupDiscoveryList',
            apiVersion: `apidiscovery.k8s.io/${v}`,
            metadata: {},
            items: [
              {
                metadata: { name: group },
                versions: [
                  {
                    version,
                    resources: [{ resource: 'flunders', responseKind: { group: '', version: '', kind: 'Flunder' }, scope: 'Namespaced', singularResource: 'flunder', verbs: ['create', 'get', 'list'], shortNames: ['fl'] }],
                    freshness: 'Current',
                  },
                ],
              },
            ],
          },
          `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`,
        );
      }
      return json(res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [{ name: group, versions: [{ groupVersion: gv, version }], preferredVersion: { groupVersion: gv, version } }] });
    }
    if (path === `/apis/${group}`) return json(res, 200, { kind: 'APIGroup', apiVersion: 'v1', name: group, versions: [{ groupVersion: gv, version }], preferredVersion: { groupVersion: gv, version } });
    if (path === `/apis/${gv}`) {
      return json(res, 200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv, resources: [{ name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['create', 'get', 'list'], shortNames: ['fl'] }] });
    }
    if (path === '/openapi/v2') {
      return json(res, 200, {
        swagger: '2.0',
        info: { title: 'wardle', version: 'v0.1' },
        paths: {
          [`/apis/${gv}/namespaces/{namespace}/flunders`]: { get: { operationId: 'listWardleV1alpha1NamespacedFlunder', responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/com.example.wardle.v1alpha1.FlunderList' } } } } },
          [`/apis/${gv}/namespaces/{namespace}/flunders/{name}`]: { get: { operationId: 'readWardleV1alpha1NamespacedFlunder', responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/com.example.wardle.v1alpha1.Flunder' } } } } },
        },
        definitions: {
          'com.example.wardle.v1alpha1.Flunder': flunderSchema,
          'com.example.wardle.v1alpha1.FlunderList': { type: 'object', properties: { items: { type: 'array', items: { $ref: '#/definitions/com.example.wardle.v1alpha1.Flunder' } } }, 'x-kubernetes-group-version-kind': [{ group, version, kind: 'FlunderList' }] },
        },
      });
    }
    if (path === '/openapi/v3') return json(res, 200, { paths: { [`apis/${gv}`]: { serverRelativeURL: `/openapi/v3/apis/${gv}?hash=ABC` } } });
    if (path === `/openapi/v3/apis/${gv}`) {
      return json(res, 200, {
        openapi: '3.0.0',
        info: { title: 'wardle', version: 'v0.1' },
        paths: { [`/apis/${gv}/namespaces/{namespace}/flunders`]: { get: { operationId: 'listWardleV1alpha1NamespacedFlunder', responses: { '200': { description: 'OK' } } } } },
        components: { schemas: { 'com.example.wardle.v1alpha1.Flunder': flunderSchema } },
      });
    }
    const m = new RegExp(`^/apis/${group.replace(/\./g, '\\.')}/${version}/namespaces/([^/]+)/flunders(?:/([^/]+))?$`).exec(path);
    if (!m) return status(res, 404, 'NotFound', 'the server could not find the requested resource');
    const ns = m[1] as string;
    const name = m[2];
    if (name === 'redirect') return void res.writeHead(302, { location: 'https://192.0.2.1/elsewhere' }).end();
    if (!name && req.method === 'GET') {
      const items = [...flunders.entries()].filter(([k]) => k.startsWith(`${ns}/`)).map(([, v]) => v);
      return json(res, 200, { kind: 'FlunderList', apiVersion: gv, metadata: { resourceVersion: String(rv) }, items });
    }
    if (!name && req.method === 'POST') {
      const obj = JSON.parse(body.toString('utf8')) as { metadata?: Record<string, unknown> };
      const objName = String(obj.metadata?.name ?? '');
      if (flunders.has(`${ns}/${objName}`)) return status(res, 409, 'AlreadyExists', `flunders.${group} "${objName}" already exists`);
      const stored = { ...obj, apiVersion: gv, kind: 'Flunder', metadata: { ...(obj.metadata ?? {}), namespace: ns, resourceVersion: String(++rv), annotations: { 'wardle.example.com/created-by': user } } };
      flunders.set(`${ns}/${objName}`, stored);
      return json(res, 201, stored);
    }
    if (name && req.method === 'GET') {
      const got = flunders.get(`${ns}/${name}`);
      return got ? json(res, 200, got) : status(res, 404, 'NotFound', `flunders.${group} "${name}" not found`);
    }
    return status(res, 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  };

  const server: Server = createServer({ cert: serving.cert, key: serving.key, ca: options.requestHeaderCA, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });
  // An upgrade to the "echo" protocol is answered 101, after which every byte is sent back.
  server.on('upgrade', (req: IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => {
    const cn = (socket as TLSSocket).getPeerCertificate?.()?.subject?.CN;
    seen.push({ method: req.method ?? '', path: (req.url ?? '').split('?')[0] ?? '', ...(cn ? { clientCN: String(cn) } : {}), ...(req.headers['x-remote-user'] ? { user: String(req.headers['x-remote-user']) } : {}), groups: headerValues(req, 'x-remote-group'), extra: {} });
    socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n');
    if (head.length > 0) socket.write(head);
    socket.pipe(socket);
  });
  let port = 0;
  const start = (): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  await start();
  return {
    get port() {
      return port;
    },
    host,
    ca,
    caBundle: Buffer.from(ca.certPem).toString('base64'),
    seen,
    start,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Registers ext behind fx as kube users do: namespace wardle, Service api (port 443 to the
 * server's port), its EndpointSlice at 127.0.0.1 (reached with --enable-aggregator-routing), and
 * the APIService v1alpha1.wardle.example.com with the server's CA.
 */
export async function registerWardle(fx: Pick<ServerFixture, 'request'>, ext: ExtensionApiServer): Promise<void> {
  assert.equal((await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'wardle' } } })).status, 201);
  const svc = await fx.request('POST', '/api/v1/namespaces/wardle/services', { body: { metadata: { name: 'api' }, spec: { ports: [{ name: 'https', port: 443, targetPort: ext.port }] } } });
  assert.equal(svc.status, 201, svc.text);
  const slice = await fx.request('POST', '/apis/discovery.k8s.io/v1/namespaces/wardle/endpointslices', {
    body: { metadata: { name: 'api-1', labels: { 'kubernetes.io/service-name': 'api' } }, addressType: 'IPv4', endpoints: [{ addresses: ['127.0.0.1'] }], ports: [{ name: 'https', port: ext.port }] },
  });
  assert.equal(slice.status, 201, slice.text);
  const api = await fx.request('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
    body: {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1alpha1.wardle.example.com' },
      spec: { group: 'wardle.example.com', version: 'v1alpha1', service: { namespace: 'wardle', name: 'api', port: 443 }, caBundle: ext.caBundle, groupPriorityMinimum: 2000, versionPriority: 10 },
    },
  });
  assert.equal(api.status, 201, api.text);
}
