/**
 * --authorization-mode over HTTP with anonymous requests: Node,ABAC with a policy file for
 * system:anonymous (kube's forbidden message with ABAC's reason, the metrics, informer-sync in
 * readyz), and Webhook against an HTTPS webhook this test runs (its reason on 403, a broken answer
 * is a 500).
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createCertificateAuthority, issueCertificate } from '../../internal/server/pki.js';
import { useServer } from '../support/server.js';
import { writeWebhookKubeconfig } from '../support/webhook-kubeconfig.js';

const policy = (spec: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });

describe('--authorization-mode=Node,ABAC', () => {
  const fx = useServer({}, async () => {
    // fx.dir exists when the flags are made, and is removed after the tests.
    const file = join(fx.dir, 'policy.jsonl');
    await writeFile(
      file,
      [
        '# anonymous may read everything, and write config maps in kube-public',
        policy({ group: 'system:unauthenticated', namespace: '*', resource: '*', apiGroup: '*', readonly: true }),
        policy({ group: 'system:unauthenticated', nonResourcePath: '*', readonly: true }),
        policy({ user: 'system:anonymous', namespace: 'kube-public', resource: 'configmaps', apiGroup: '' }),
        '',
      ].join('\n'),
    );
    return ['--authorization-mode=Node,ABAC', `--authorization-policy-file=${file}`];
  });

  it('allows what a policy allows and refuses the rest with "No policy matched."', async () => {
    assert.equal((await fx.request('GET', '/api/v1/namespaces/default/configmaps')).status, 200);
    assert.equal((await fx.request('GET', '/version')).status, 200);
    const created = await fx.request('POST', '/api/v1/namespaces/kube-public/configmaps', { body: { metadata: { name: 'open' }, data: { a: 'b' } } });
    assert.equal(created.status, 201);
    const refused = await fx.request('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'closed' } } });
    assert.equal(refused.status, 403);
    assert.equal(refused.json().message, 'configmaps is forbidden: User "system:anonymous" cannot create resource "configmaps" in API group "" in the namespace "default": No policy matched.');
    const del = await fx.request('DELETE', '/api/v1/namespaces/kube-public/configmaps/open/');
    assert.equal(del.status, 200, 'the write policy covers delete');
  });

  it('reports informer-sync in readyz and authorization metrics', async () => {
    const ready = await fx.request('GET', '/readyz?verbose');
    assert.equal(ready.status, 200);
    assert.match(ready.text, /\[\+\]informer-sync ok/);
    await fx.request('PUT', '/api/v1/namespaces/default/configmaps/x', { body: { metadata: { name: 'x' } } });
    const metrics = (await fx.request('GET', '/metrics')).text;
    assert.match(metrics, /^authorization_attempts_total\{result="allowed"\} [1-9]/m);
    assert.match(metrics, /^authorization_attempts_total\{result="no-opinion"\} [1-9]/m);
    assert.match(metrics, /^authorization_duration_seconds_bucket\{result="allowed",le="0.001"\} /m);
    assert.match(metrics, /^apiserver_authorization_decisions_total\{type="ABAC",name="abac",decision="allowed"\} [1-9]/m);
  });
});

describe('--authorization-mode=Webhook (v1)', () => {
  let webhook: Server;
  const reviews: Array<Record<string, any>> = [];
  after(async () => {
    webhook?.closeAllConnections();
    await new Promise((r) => webhook?.close(r));
  });
  const fx = useServer({}, async () => {
    const ca = await createCertificateAuthority('authz-webhook-ca');
    const serving = await issueCertificate(ca, { commonName: 'authz-webhook', usage: 'server', ips: ['127.0.0.1'] });
    webhook = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
        reviews.push(review);
        const r = review.spec.resourceAttributes;
        res.setHeader('Content-Type', 'application/json');
        if (review.spec.nonResourceAttributes?.path === '/version') return void res.end('{"status": not json');
        const status = r?.verb === 'create' ? { allowed: false, denied: true, reason: 'creates need approval' } : r?.resource === 'configmaps' ? { allowed: true } : { allowed: false };
        res.end(JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status }));
      });
    });
    await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
    const file = await writeWebhookKubeconfig(fx.dir, {
      fileName: 'authz-webhook.kubeconfig',
      caFileName: 'authz-webhook-ca.crt',
      caPem: ca.certPem,
      server: `https://127.0.0.1:${(webhook.address() as AddressInfo).port}/authorize`,
      cluster: 'authz',
    });
    return ['--authorization-mode=Webhook', `--authorization-webhook-config-file=${file}`, '--authorization-webhook-version=v1'];
  });

  it('asks the webhook with a v1 SubjectAccessReview for the anonymous user and follows its answer', async () => {
    assert.equal((await fx.request('GET', '/api/v1/namespaces/default/configmaps')).status, 200);
    const sent = reviews.find((r) => r.spec.resourceAttributes?.resource === 'configmaps');
    assert.equal(sent?.apiVersion, 'authorization.k8s.io/v1');
    assert.deepEqual(sent?.spec, { resourceAttributes: { namespace: 'default', verb: 'list', version: 'v1', resource: 'configmaps' }, user: 'system:anonymous', groups: ['system:unauthenticated'] });
    const denied = await fx.request('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'c' } } });
    assert.equal(denied.status, 403);
    assert.equal(denied.json().message, 'configmaps is forbidden: User "system:anonymous" cannot create resource "configmaps" in API group "" in the namespace "default": creates need approval');
    assert.equal((await fx.request('GET', '/api/v1/namespaces/default/secrets')).status, 403);
  });

  it('answers 500 when the webhook answers something that is not a SubjectAccessReview', async () => {
    const res = await fx.request('GET', '/version');
    assert.equal(res.status, 500);
    assert.equal(res.json().reason, 'InternalError');
    assert.match(res.json().message, /^Internal error occurred: couldn't get version\/kind; json parse error: /);
    // The webhook does not allow GET /metrics: read the server's registry.
    const metrics = await fx.server.metrics.text();
    assert.match(metrics, /^apiserver_authorization_webhook_evaluations_total\{name="webhook",result="error"\} 1/m);
    assert.match(metrics, /^authorization_attempts_total\{result="error"\} 1/m);
  });
});
