import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createLogger } from '../../observability/logging.js';
import { createMetrics } from '../../observability/metrics.js';
import { createCertificateAuthority, issueCertificate } from '../../server/pki.js';
import type { WebhookVersion } from '../../server/options/authorization.js';
import { WebhookClient } from '../../webhook/client.js';
import { loadWebhookKubeconfig } from '../../webhook/kubeconfig.js';
import type { AuthorizationAttributes } from '../interface.js';
import { parseFieldSelector } from '../../selectors/fields.js';

/** A request's field selector as the authorization filter parses it. */
function fieldSelectorOf(raw: string): { requirements: ReturnType<typeof parseFieldSelector>['terms'] } {
  return { requirements: parseFieldSelector(raw).terms };
}
import { WebhookAuthorizer } from './authorizer.js';

const log = createLogger(0, true);
const fastBackoff = { initialMs: 5, factor: 1.5, jitter: 0.2, steps: 3 };
const user = { name: 'jane', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } };

function listPods(opts: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes {
  return { user, verb: 'list', isResourceRequest: true, path: '/api/v1/namespaces/ns/pods', namespace: 'ns', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: '', ...opts };
}

/** A webhook the test controls: what it answers, and what it was sent. */
interface Hook {
  server: Server;
  url: string;
  ca: string;
  requests: Array<Record<string, any>>;
  answer: (review: Record<string, any>) => { status?: number; body: string };
}

describe('webhook authorizer against a real HTTPS webhook', () => {
  const hook = {} as Hook;
  let dir: string;
  let kubeconfigPath: string;

  before(async () => {
    const ca = await createCertificateAuthority('webhook-ca');
    const serving = await issueCertificate(ca, { commonName: 'webhook', usage: 'server', ips: ['127.0.0.1'] });
    hook.ca = ca.certPem;
    hook.requests = [];
    hook.server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
        hook.requests.push(review);
        const a = hook.answer(review);
        res.statusCode = a.status ?? 200;
        res.setHeader('Content-Type', 'application/json');
        res.end(a.body);
      });
    });
    await new Promise<void>((resolve) => hook.server.listen(0, '127.0.0.1', resolve));
    hook.url = `https://127.0.0.1:${(hook.server.address() as AddressInfo).port}/authorize`;
    dir = await mkdtemp(join(tmpdir(), 'authz-webhook-'));
    kubeconfigPath = join(dir, 'kubeconfig');
    await writeFile(
      kubeconfigPath,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: authz',
        '  cluster:',
        `    server: ${hook.url}`,
        `    certificate-authority-data: ${Buffer.from(hook.ca).toString('base64')}`,
        'users:',
        '- name: apiserver',
        '  user:',
        '    token: secret-token',
        'contexts:',
        '- name: authz',
        '  context: {cluster: authz, user: apiserver}',
        'current-context: authz',
        '',
      ].join('\n'),
    );
  });
  after(async () => {
    hook.server?.closeAllConnections();
    await new Promise((r) => hook.server?.close(r));
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    hook.requests.length = 0;
    hook.answer = () => ({ body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status: { allowed: true } }) });
  });

  async function authorizer(version: WebhookVersion, extra: { now?: () => number; metrics?: ReturnType<typeof createMetrics>; authorizedTTLMs?: number; unauthorizedTTLMs?: number } = {}) {
    const client = new WebhookClient(await loadWebhookKubeconfig(kubeconfigPath), { timeoutMs: 2000, backoff: fastBackoff });
    const a = new WebhookAuthorizer({
      client,
      version,
      authorizedTTLMs: extra.authorizedTTLMs ?? 300_000,
      unauthorizedTTLMs: extra.unauthorizedTTLMs ?? 30_000,
      name: 'webhook',
      log,
      ...(extra.now ? { now: extra.now } : {}),
      ...(extra.metrics ? { metrics: extra.metrics } : {}),
    });
    return { a, close: () => client.close() };
  }

  it('v1: sends resourceAttributes (with the field selector), user, groups, uid and extra; reads allowed and reason', async () => {
    const { a, close } = await authorizer('v1');
    try {
      hook.answer = () => ({ body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status: { allowed: true, reason: 'jane may' } }) });
      assert.deepEqual(await a.authorize(listPods({ fieldSelector: fieldSelectorOf('spec.nodeName=n1,status.phase!=Failed') })), { decision: 'Allow', reason: 'jane may' });
      assert.deepEqual(hook.requests[0], {
        kind: 'SubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: { creationTimestamp: null },
        spec: {
          resourceAttributes: {
            namespace: 'ns',
            verb: 'list',
            version: 'v1',
            resource: 'pods',
            fieldSelector: { requirements: [{ key: 'spec.nodeName', operator: 'In', values: ['n1'] }, { key: 'status.phase', operator: 'NotIn', values: ['Failed'] }] },
          },
          user: 'jane',
          groups: ['dev', 'system:authenticated'],
          extra: { scopes: ['a', 'b'] },
          uid: 'u-1',
        },
        status: { allowed: false },
      });
      hook.answer = () => ({ body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status: { allowed: false, denied: true, reason: 'no pods for jane' } }) });
      assert.deepEqual(await a.authorize(listPods({ verb: 'delete', name: 'x' })), { decision: 'Deny', reason: 'no pods for jane' });
      hook.answer = () => ({ body: JSON.stringify({ status: { allowed: false, reason: 'ask someone else', evaluationError: 'rule 3 failed' } }) });
      assert.deepEqual(await a.authorize(listPods({ verb: 'create' })), { decision: 'NoOpinion', reason: 'ask someone else' });
      hook.answer = () => ({ body: JSON.stringify({ status: { allowed: true, denied: true } }) });
      assert.deepEqual(await a.authorize(listPods({ verb: 'patch' })), { decision: 'Deny', reason: '', error: 'webhook subject access review returned both allow and deny response' });
    } finally {
      close();
    }
  });

  it('v1beta1: spells groups "group" and sends nonResourceAttributes for paths', async () => {
    const { a, close } = await authorizer('v1beta1');
    try {
      hook.answer = () => ({ body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1beta1', kind: 'SubjectAccessReview', status: { allowed: true } }) });
      const attrs: AuthorizationAttributes = { ...listPods(), verb: 'get', isResourceRequest: false, path: '/healthz', namespace: '', resource: '', apiVersion: '' };
      assert.equal((await a.authorize(attrs)).decision, 'Allow');
      const sent = hook.requests[0] as Record<string, any>;
      assert.equal(sent.apiVersion, 'authorization.k8s.io/v1beta1');
      assert.deepEqual(sent.spec, { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'jane', group: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] }, uid: 'u-1' });
    } finally {
      close();
    }
  });

  it('caches allowed answers for the authorized TTL and the others for the unauthorized TTL', async () => {
    let now = 1_000_000;
    const { a, close } = await authorizer('v1', { now: () => now, authorizedTTLMs: 60_000, unauthorizedTTLMs: 5_000 });
    try {
      hook.answer = (r) => ({ body: JSON.stringify({ status: { allowed: r.spec.resourceAttributes.verb === 'get', reason: 'verb rule' } }) });
      const getPod = listPods({ verb: 'get', name: 'p' });
      const deletePod = listPods({ verb: 'delete', name: 'p' });
      assert.equal((await a.authorize(getPod)).decision, 'Allow');
      assert.equal((await a.authorize(deletePod)).decision, 'NoOpinion');
      assert.equal(hook.requests.length, 2);
      now += 4_000;
      // Answered from the cache: synchronously, no request.
      assert.deepEqual(a.authorize(getPod), { decision: 'Allow', reason: 'verb rule' });
      assert.deepEqual(a.authorize(deletePod), { decision: 'NoOpinion', reason: 'verb rule' });
      assert.equal(hook.requests.length, 2);
      now += 2_000;
      assert.equal((await a.authorize(deletePod)).decision, 'NoOpinion');
      assert.equal(hook.requests.length, 3, 'the denial expired after 5s');
      assert.equal((await a.authorize(getPod)).decision, 'Allow');
      assert.equal(hook.requests.length, 3, 'the allowance holds for 60s');
      now += 60_000;
      await a.authorize(getPod);
      assert.equal(hook.requests.length, 4);
      // Another user is another cache entry.
      await a.authorize({ ...getPod, user: { name: 'joe', groups: [] } });
      assert.equal(hook.requests.length, 5);
    } finally {
      close();
    }
  });

  it('a failing webhook is an error after the retries, counted as a fail-open evaluation; a bad answer is an error at once', async () => {
    const metrics = createMetrics();
    const { a, close } = await authorizer('v1', { metrics });
    try {
      hook.answer = () => ({ status: 500, body: '{"kind":"Status"}' });
      const failed = await a.authorize(listPods());
      assert.equal(failed.decision, 'NoOpinion');
      assert.match(failed.error ?? '', /an error on the server \("\{\\"kind\\":\\"Status\\"\}"\) has prevented the request from succeeding/);
      assert.equal(hook.requests.length, 3, 'three attempts (the backoff steps)');
      hook.answer = () => ({ body: 'not json' });
      const bad = await a.authorize(listPods({ verb: 'watch' }));
      assert.match(bad.error ?? '', /json parse error/);
      assert.equal(hook.requests.length, 4, 'a 200 answer is not retried');
      hook.answer = () => ({ body: JSON.stringify({ status: { allowed: 'yes' } }) });
      assert.match((await a.authorize(listPods({ verb: 'get' }))).error ?? '', /cannot unmarshal string into Go struct field SubjectAccessReviewStatus\.status\.allowed of type bool/);
      hook.answer = () => ({ body: JSON.stringify({ status: { allowed: true } }) });
      await a.authorize(listPods({ verb: 'create' }));
      const text = await metrics.text();
      assert.match(text, /apiserver_authorization_webhook_evaluations_total\{name="webhook",result="error"\} 3/);
      assert.match(text, /apiserver_authorization_webhook_evaluations_total\{name="webhook",result="success"\} 1/);
      assert.match(text, /apiserver_authorization_webhook_evaluations_fail_open_total\{name="webhook",result="error"\} 3/);
      assert.match(text, /apiserver_authorization_webhook_duration_seconds_count\{name="webhook",result="success"\} 1/);
    } finally {
      close();
    }
  });

  it('an unreachable webhook is an error', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const client = new WebhookClient({ server: `https://127.0.0.1:${port}/authorize`, insecureSkipTLSVerify: false, ca: Buffer.from(hook.ca) }, { timeoutMs: 1000, backoff: fastBackoff });
    const a = new WebhookAuthorizer({ client, version: 'v1', authorizedTTLMs: 1000, unauthorizedTTLMs: 1000, name: 'webhook', log });
    try {
      const d = await a.authorize(listPods());
      assert.equal(d.decision, 'NoOpinion');
      assert.match(d.error ?? '', /ECONNREFUSED/);
    } finally {
      client.close();
    }
  });
});
