/**
 * Campaign support (fuzz-requests): a real etcd and the API server as a child process (so a crash
 * shows as the child dying, its stderr inherited), with x509 client certificates from a test CA and
 * --authorization-mode=RBAC, plus the identities the fuzzer presents: an admin in system:masters, a
 * user allowed only to read ConfigMaps in one namespace, and one allowed to impersonate.
 */
import { Etcd3 } from 'etcd3';
import { startLocalEtcd, type LocalEtcd } from '../../../hack/local-etcd.js';
import { spawnServer, type ServerHandle } from '../../../bench/server-handle.js';
import { clientCert, createCertificateAuthority, expiredClientCert, intermediateAuthority, tempDir, writeTemp, type IssuedCertificate } from '../../support/client-certs.js';
import { tokenAuthFileFlag } from '../../support/static-tokens.js';
import { rawExchange, requestHead, type Endpoint, type RawResponse } from './fuzz-requests-raw.js';

/** The namespace the fuzzer reads and writes in. */
export const fuzzNamespace = 'fuzz';

/** The identities requests present (a certificate each, except anonymous). */
export interface Identities {
  readonly admin: IssuedCertificate;
  /** May get/list/watch ConfigMaps in the fuzz namespace and nothing else. */
  readonly reader: IssuedCertificate;
  /** May impersonate users, groups, uids and userextras, and nothing else. */
  readonly impersonator: IssuedCertificate;
  /** Signed by another CA. */
  readonly foreign: IssuedCertificate;
  readonly expired: IssuedCertificate;
  readonly notYetValid: IssuedCertificate;
  /** Odd subjects: an empty CN, unicode CN and organizations, a CN with control characters. */
  readonly emptyCn: IssuedCertificate;
  readonly unicode: IssuedCertificate;
  /** Signed by an intermediate CA the server does not know, chain sent along. */
  readonly chained: IssuedCertificate;
}

/** The running fixture. */
export interface FuzzServer {
  readonly etcd: LocalEtcd;
  readonly server: ServerHandle;
  readonly ids: Identities;
  readonly kv: Etcd3;
  /** The endpoint presenting cert (anonymous when absent). */
  endpoint(cert?: IssuedCertificate): Endpoint;
  /** A well-formed request as admin (setup and liveness). */
  admin(method: string, path: string, body?: unknown): Promise<RawResponse>;
  stop(): Promise<void>;
}

/** Starts etcd, the server child and the RBAC fixtures. */
export async function startFuzzServer(): Promise<FuzzServer> {
  const etcd = await startLocalEtcd();
  const dir = await tempDir('capstan-fuzz-req-');
  const ca = await createCertificateAuthority('fuzz-client-ca');
  const other = await createCertificateAuthority('fuzz-client-ca');
  const inter = await intermediateAuthority(other, 'fuzz-intermediate');
  const leaf = await clientCert(inter, 'chained-user');
  const day = 24 * 3600 * 1000;
  const ids: Identities = {
    admin: await clientCert(ca, 'fuzz-admin', ['system:masters']),
    reader: await clientCert(ca, 'fuzz-reader'),
    impersonator: await clientCert(ca, 'fuzz-impersonator'),
    foreign: await clientCert(other, 'fuzz-admin', ['system:masters']),
    expired: await expiredClientCert(ca, 'fuzz-admin'),
    notYetValid: await clientCert(ca, 'fuzz-admin', ['system:masters'], { notBefore: new Date(Date.now() + day), notAfter: new Date(Date.now() + 2 * day) }),
    emptyCn: await clientCert(ca, '', ['system:masters']),
    unicode: await clientCert(ca, 'ü☃\u200b名前', ['grüppe', '']),
    chained: { cert: leaf.cert + inter.certPem, key: leaf.key },
  };
  const flags = [
    `--client-ca-file=${await writeTemp(dir, 'ca.crt', ca.certPem)}`,
    await tokenAuthFileFlag([{ token: 'fuzz-token-0123456789', name: 'token-user', uid: 'token-uid' }]),
    '--authorization-mode=RBAC',
  ];
  const server = await spawnServer({ mode: 'api', etcdEndpoint: etcd.endpoint, certDir: `${dir}/certs`, flags, extra: { requestTimeoutMs: 20_000 } });
  const endpoint = (cert?: IssuedCertificate): Endpoint => ({ port: server.port, ca: server.ca, ...(cert ? { cert } : {}) });
  const admin = (method: string, path: string, body?: unknown): Promise<RawResponse> => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: [string, string][] = [['Connection', 'close']];
    if (payload) headers.push(['Content-Type', 'application/json'], ['Content-Length', String(payload.length)]);
    return rawExchange(endpoint(ids.admin), { head: requestHead(method, path, headers), parts: payload ? [payload] : [] });
  };
  const must = async (method: string, path: string, body?: unknown): Promise<void> => {
    const res = await admin(method, path, body);
    if (res.status !== 201 && res.status !== 200) throw new Error(`fixture ${method} ${path}: ${res.status} ${res.body.toString().slice(0, 300)}`);
  };
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  await must('POST', '/api/v1/namespaces', { metadata: { name: fuzzNamespace } });
  await must('POST', `${rbac}/namespaces/${fuzzNamespace}/roles`, {
    metadata: { name: 'cm-reader' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
  });
  await must('POST', `${rbac}/namespaces/${fuzzNamespace}/rolebindings`, {
    metadata: { name: 'cm-reader' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
    subjects: [{ kind: 'User', name: 'fuzz-reader' }],
  });
  await must('POST', `${rbac}/clusterroles`, {
    metadata: { name: 'fuzz-impersonate' },
    rules: [
      { apiGroups: [''], resources: ['users', 'groups'], verbs: ['impersonate'] },
      { apiGroups: ['authentication.k8s.io'], resources: ['uids', 'userextras/scopes', 'userextras/acme.com/project', 'userextras/reason'], verbs: ['impersonate'] },
    ],
  });
  await must('POST', `${rbac}/clusterrolebindings`, {
    metadata: { name: 'fuzz-impersonate' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'fuzz-impersonate' },
    subjects: [{ kind: 'User', name: 'fuzz-impersonator' }],
  });
  for (let i = 0; i < 5; i++) await must('POST', `/api/v1/namespaces/${fuzzNamespace}/configmaps`, { metadata: { name: `seed-${i}`, labels: { app: 'seed', i: String(i) } }, data: { i: String(i) } });
  // RBAC sees new bindings through its informer: wait until both grants are in force.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const r = await rawExchange(endpoint(ids.reader), { head: requestHead('GET', `/api/v1/namespaces/${fuzzNamespace}/configmaps`, [['Connection', 'close']]) });
    const i = await rawExchange(endpoint(ids.impersonator), {
      head: requestHead('GET', `/api/v1/namespaces/${fuzzNamespace}/configmaps`, [['Connection', 'close'], ['Impersonate-User', 'fuzz-reader']]),
    });
    if (r.status === 200 && i.status === 200) break;
    if (Date.now() > deadline) throw new Error(`RBAC fixtures not in force: reader ${r.status}, impersonator ${i.status}`);
    await new Promise((res) => setTimeout(res, 100));
  }
  const kv = new Etcd3({ hosts: etcd.endpoint });
  return {
    etcd,
    server,
    ids,
    kv,
    endpoint,
    admin,
    stop: async () => {
      kv.close();
      await server.stop();
      await etcd.stop();
    },
  };
}
