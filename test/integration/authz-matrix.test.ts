/**
 * The authorization matrix: four identities (a cluster-admin by ClusterRoleBinding, an editor by
 * RoleBinding to `edit` in one namespace, a viewer by RoleBinding to `view` in the other, and
 * anonymous) make every verb on six resources and two subresources in two namespaces, for real,
 * over HTTPS with --authorization-mode=RBAC and static tokens. Each answer must be 403 exactly
 * where kube's default roles deny: no unauthorized request succeeds, no authorized one is refused.
 * The expectations are written out below from kube's bootstrap roles, not computed by Capstan.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { useServer } from '../support/server.js';

const dir = mkdtempSync(join(tmpdir(), 'capstan-matrix-'));
const tokenFile = join(dir, 'tokens.csv');
const tokens = { root: 'root-token-0123456789', admin: 'admin-token-0123456789', editor: 'editor-token-0123456789', viewer: 'viewer-token-0123456789' };
writeFileSync(
  tokenFile,
  [
    `${tokens.root},root,uid-root,"system:masters"`,
    `${tokens.admin},matrix-admin,uid-admin`,
    `${tokens.editor},matrix-editor,uid-editor,"matrix-editors"`,
    `${tokens.viewer},matrix-viewer,uid-viewer`,
  ].join('\n') + '\n',
);

const fx = useServer({}, [`--token-auth-file=${tokenFile}`, '--authorization-mode=RBAC']);

type Identity = 'admin' | 'editor' | 'viewer' | 'anonymous';
const identities: Identity[] = ['admin', 'editor', 'viewer', 'anonymous'];
const namespaces = ['matrix-a', 'matrix-b'] as const;
const verbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'] as const;
const subresourceVerbs = ['get', 'create', 'update', 'patch', 'delete'] as const;
type Verb = (typeof verbs)[number];

interface Target {
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly kind: string;
  readonly apiVersion: string;
  readonly body: (name: string) => Record<string, unknown>;
}

const podBody = (name: string): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { matrix: 'yes' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
const deploymentBody = (name: string): Record<string, unknown> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels: { matrix: 'yes' } },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
});
const targets: Target[] = [
  { group: '', resource: 'pods', kind: 'Pod', apiVersion: 'v1', body: podBody },
  { group: '', resource: 'configmaps', kind: 'ConfigMap', apiVersion: 'v1', body: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { matrix: 'yes' } }, data: { a: 'b' } }) },
  { group: '', resource: 'secrets', kind: 'Secret', apiVersion: 'v1', body: (name) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, labels: { matrix: 'yes' } }, stringData: { a: 'b' } }) },
  { group: '', resource: 'services', kind: 'Service', apiVersion: 'v1', body: (name) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, labels: { matrix: 'yes' } }, spec: { ports: [{ port: 80 }] } }) },
  { group: 'apps', resource: 'deployments', kind: 'Deployment', apiVersion: 'apps/v1', body: deploymentBody },
  { group: 'rbac.authorization.k8s.io', resource: 'roles', kind: 'Role', apiVersion: 'rbac.authorization.k8s.io/v1', body: (name) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name, labels: { matrix: 'yes' } }, rules: [] }) },
  { group: '', resource: 'pods', subresource: 'status', kind: 'Pod', apiVersion: 'v1', body: podBody },
  { group: 'apps', resource: 'deployments', subresource: 'scale', kind: 'Scale', apiVersion: 'autoscaling/v1', body: (name) => ({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name }, spec: { replicas: 2 } }) },
];

const read: readonly string[] = ['get', 'list', 'watch'];
const write: readonly string[] = ['create', 'update', 'patch', 'delete', 'deletecollection'];

/**
 * kube 1.33's default roles, for these targets: `view` reads pods (and pods/status), config maps,
 * services, deployments (and deployments/scale), never secrets or roles; `edit` adds every write on
 * all of them and reads secrets, still nothing on roles and no writes on pods/status;
 * cluster-admin does everything; anonymous nothing.
 */
function expectedAllowed(who: Identity, ns: string, t: Target, verb: string): boolean {
  const key = t.subresource ? `${t.resource}/${t.subresource}` : t.resource;
  if (who === 'admin') return true;
  if (who === 'anonymous') return false;
  if (key === 'roles') return false;
  const viewReadable = ['pods', 'pods/status', 'configmaps', 'services', 'deployments', 'deployments/scale'].includes(key);
  if (who === 'viewer') return ns === 'matrix-b' && viewReadable && read.includes(verb);
  // editor, in matrix-a only
  if (ns !== 'matrix-a') return false;
  if (read.includes(verb)) return true;
  if (key === 'pods/status') return false;
  return write.includes(verb);
}

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** One request; for watches, resolves as soon as the response head arrives and closes the stream. */
function call(who: Identity, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (who !== 'anonymous') headers.authorization = `Bearer ${tokens[who]}`;
  if (payload) {
    headers['content-type'] = contentType;
    headers['content-length'] = String(payload.length);
  }
  const watching = path.includes('watch=true');
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: fx.port, path, method, headers, ca: fx.ca, servername: 'localhost' }, (res) => {
      if (watching && res.statusCode === 200) {
        resolve({ status: 200, body: '' });
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', (err) => (watching ? resolve({ status: -1, body: String(err) }) : reject(err)));
    req.end(payload);
  });
}

function base(t: Target, ns: string): string {
  return `${t.group ? `/apis/${t.group}/v1` : '/api/v1'}/namespaces/${ns}/${t.resource}`;
}

/** The request for verb on target, with the verb's URL form. */
function requestFor(t: Target, ns: string, verb: Verb, name: string): { method: string; path: string; body?: unknown; contentType?: string } {
  const collection = base(t, ns);
  const one = `${collection}/${name}${t.subresource ? `/${t.subresource}` : ''}`;
  switch (verb) {
    case 'get':
      return { method: 'GET', path: one };
    case 'list':
      return { method: 'GET', path: `${collection}?labelSelector=matrix%3Dyes` };
    case 'watch':
      return { method: 'GET', path: `${collection}?watch=true&labelSelector=matrix%3Dyes` };
    case 'create':
      return t.subresource ? { method: 'POST', path: one, body: t.body(name) } : { method: 'POST', path: collection, body: t.body(`${name}-new`) };
    case 'update':
      return { method: 'PUT', path: one, body: t.body(name) };
    case 'patch':
      return { method: 'PATCH', path: one, body: { metadata: { annotations: { patched: 'yes' } } }, contentType: 'application/merge-patch+json' };
    case 'delete':
      return { method: 'DELETE', path: one };
    case 'deletecollection':
      return { method: 'DELETE', path: `${collection}?labelSelector=matrix%3Dnone` };
  }
}

describe('authorization matrix: 4 identities x every verb x 6 resources and 2 subresources x 2 namespaces', () => {
  before(async () => {
    const root = (method: string, path: string, body: unknown): Promise<Answer> => callAs(tokens.root, method, path, body);
    for (const ns of namespaces) assert.ok([201, 409].includes((await root('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status));
    const rbac = '/apis/rbac.authorization.k8s.io/v1';
    const bindings: Array<[string, unknown]> = [
      [`${rbac}/clusterrolebindings`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'matrix-admin' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'matrix-admin' }] }],
      [`${rbac}/namespaces/matrix-a/rolebindings`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'editors' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'matrix-editors' }] }],
      [`${rbac}/namespaces/matrix-b/rolebindings`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'viewer' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'matrix-viewer' }] }],
    ];
    for (const [path, body] of bindings) assert.equal((await callAs(tokens.root, 'POST', path, body)).status, 201, path);
    // The objects every named request addresses, in both namespaces.
    for (const ns of namespaces) {
      for (const t of targets.filter((x) => !x.subresource)) {
        const res = await callAs(tokens.root, 'POST', base(t, ns), t.body('target'));
        assert.equal(res.status, 201, `${t.resource} in ${ns}: ${res.body}`);
      }
    }
    // RBAC decides from its informers: wait until the bindings are seen.
    const deadline = Date.now() + 10_000;
    while ((await call('viewer', 'GET', base(targets[0] as Target, 'matrix-b'))).status === 403) {
      if (Date.now() > deadline) throw new Error('the viewer binding never took effect');
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it('every answer is 403 exactly where the roles deny', async () => {
    let decisions = 0;
    let allowed = 0;
    const wrong: string[] = [];
    for (const who of identities) {
      for (const ns of namespaces) {
        for (const t of targets) {
          for (const verb of t.subresource ? subresourceVerbs : verbs) {
            const r = requestFor(t, ns, verb, 'target');
            const answer = await call(who, r.method, r.path, r.body, r.contentType);
            decisions++;
            const expected = expectedAllowed(who, ns, t, verb);
            const label = `${who} ${verb} ${t.group || 'core'}/${t.resource}${t.subresource ? `/${t.subresource}` : ''} in ${ns}: ${answer.status}`;
            if (expected) {
              allowed++;
              if (answer.status === 403 || answer.status === 401 || answer.status < 0) wrong.push(`authorized but refused: ${label} ${answer.body}`);
            } else if (answer.status !== 403) {
              wrong.push(`UNAUTHORIZED SUCCESS: ${label} ${answer.body.slice(0, 200)}`);
            } else {
              const status = JSON.parse(answer.body) as { reason?: string; message?: string };
              const user = who === 'anonymous' ? 'system:anonymous' : `matrix-${who}`;
              if (status.reason !== 'Forbidden' || !status.message?.includes(`User "${user}" cannot ${verb} resource`)) wrong.push(`denied with the wrong Status: ${label} ${answer.body}`);
            }
          }
        }
      }
    }
    console.log(`authorization matrix: ${decisions} decisions, ${allowed} allowed, ${decisions - allowed} denied, ${wrong.length} wrong`);
    assert.deepEqual(wrong, []);
    assert.equal(decisions, identities.length * namespaces.length * (6 * verbs.length + 2 * subresourceVerbs.length));
  });
});

function callAs(token: string, method: string, path: string, body: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: fx.port,
        path,
        method,
        ca: fx.ca,
        servername: 'localhost',
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
