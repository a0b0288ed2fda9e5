/**
 * API Priority and Fairness against a real server: the bootstrap configuration (kubectl lists it),
 * the X-Kubernetes-PF-* headers naming the objects that classified a request, a user's FlowSchema
 * sending them to a one-seat Reject level that answers 429 while a genuinely slow request (a slow
 * authorization webhook: the seat is held from admission through authorization) holds the seat,
 * the Dangling condition set and cleared, readyz's post-start hooks, the debug dumps, and across a
 * restart: deleted mandatory objects come back and a suggested object with auto-update off keeps
 * its edit.
 */
import assert from 'node:assert/strict';
import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { createCertificateAuthority, issueCertificate } from '../../internal/server/pki.js';
import { kubectl } from '../support/kubectl.js';
import { useServer } from '../support/server.js';
import { bearer, tokenAuthFileFlag } from '../support/static-tokens.js';
import { writeWebhookKubeconfig } from '../support/webhook-kubeconfig.js';

const fc = '/apis/flowcontrol.apiserver.k8s.io/v1';
const slowToken = 'slow-user-token';
/** How long the webhook takes for a request of the slow user naming a "slow-" object. */
const slowMs = 1500;

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('API priority and fairness', () => {
  let webhook: Server;
  after(async () => {
    webhook?.closeAllConnections();
    await new Promise((r) => webhook?.close(r));
  });
  const fx = useServer({}, async () => {
    const ca = await createCertificateAuthority('apf-authz-ca');
    const serving = await issueCertificate(ca, { commonName: 'apf-authz', usage: 'server', ips: ['127.0.0.1'] });
    webhook = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
        const slow = review.spec.user === 'slow-user' && String(review.spec.resourceAttributes?.name ?? '').startsWith('slow-');
        setTimeout(() => {
          res.setHeader('Content-Type', 'application/json');
          res.end(JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status: { allowed: true } }));
        }, slow ? slowMs : 0);
      });
    });
    await new Promise<void>((r) => webhook.listen(0, '127.0.0.1', r));
    const file = await writeWebhookKubeconfig(fx.dir, {
      fileName: 'authz.kubeconfig',
      caFileName: 'authz-ca.crt',
      caPem: ca.certPem,
      server: `https://127.0.0.1:${(webhook.address() as AddressInfo).port}/authorize`,
      cluster: 'authz',
    });
    return [
      '--authorization-mode=Webhook',
      `--authorization-webhook-config-file=${file}`,
      '--authorization-webhook-version=v1',
      await tokenAuthFileFlag([{ token: slowToken, name: 'slow-user', uid: '42', groups: ['tenants'] }]),
      // 50 seats in all: a level of 1 share out of about 250 gets exactly one.
      '--max-requests-inflight=40',
      '--max-mutating-requests-inflight=10',
    ];
  });
  const uidOf = async (kind: string, name: string): Promise<string> => (await fx.request('GET', `${fc}/${kind}/${name}`)).json().metadata.uid;

  it('creates the bootstrap configuration; kubectl lists it', async () => {
    await waitFor('the bootstrap objects', async () => (await fx.request('GET', `${fc}/flowschemas`)).json().items?.length >= 13);
    const out = await kubectl(fx.kubeconfigPath, ['get', 'flowschemas']);
    assert.equal(out.code, 0, out.stderr);
    for (const name of ['exempt', 'probes', 'system-leader-election', 'endpoint-controller', 'system-node-high', 'system-nodes', 'kube-controller-manager', 'global-default', 'catch-all']) {
      assert.match(out.stdout, new RegExp(`^${name}\\s`, 'm'));
    }
    assert.match(out.stdout, /^NAME\s+PRIORITYLEVEL\s+MATCHINGPRECEDENCE\s+DISTINGUISHERMETHOD\s+AGE\s+MISSINGPL$/m);
    await waitFor('the Dangling conditions', async () => /^global-default\s+global-default\s+9900\s+ByUser\s+\S+\s+False$/m.test((await kubectl(fx.kubeconfigPath, ['get', 'flowschemas'])).stdout));
    const levels = await kubectl(fx.kubeconfigPath, ['get', 'prioritylevelconfigurations']);
    assert.match(levels.stdout, /^workload-low\s+Limited\s+100\s+128\s+6\s+50\s/m);
    assert.match(levels.stdout, /^exempt\s+Exempt\s+<none>\s+<none>\s+<none>\s+<none>\s/m);
  });

  it('names the FlowSchema and priority level of each request in the response headers', async () => {
    await waitFor('the config consumer', async () => (await fx.request('GET', '/readyz/poststarthook/priority-and-fairness-config-consumer')).status === 200);
    const res = await fx.request('GET', '/api/v1/namespaces');
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-kubernetes-pf-flowschema-uid'], await uidOf('flowschemas', 'global-default'));
    assert.equal(res.headers['x-kubernetes-pf-prioritylevel-uid'], await uidOf('prioritylevelconfigurations', 'global-default'));
    const probe = await fx.request('GET', '/readyz');
    assert.equal(probe.headers['x-kubernetes-pf-flowschema-uid'], await uidOf('flowschemas', 'probes'));
    assert.equal(probe.headers['x-kubernetes-pf-prioritylevel-uid'], await uidOf('prioritylevelconfigurations', 'exempt'));
  });

  it('reports its post-start hooks in readyz', async () => {
    const ready = await fx.request('GET', '/readyz?verbose');
    for (const hook of ['priority-and-fairness-config-producer', 'priority-and-fairness-filter', 'priority-and-fairness-config-consumer']) {
      assert.match(ready.text, new RegExp(`\\[\\+\\]poststarthook/${hook} ok`));
    }
  });

  it('a one-seat Reject level answers 429 with Retry-After while its seat is held', async () => {
    const level = { metadata: { name: 'tenant-slow' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse: { type: 'Reject' } } } };
    assert.equal((await fx.request('POST', `${fc}/prioritylevelconfigurations`, { body: level })).status, 201);
    const rule = { subjects: [{ kind: 'User', user: { name: 'slow-user' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] };
    const schema = { metadata: { name: 'tenant-slow' }, spec: { priorityLevelConfiguration: { name: 'tenant-slow' }, matchingPrecedence: 50, distinguisherMethod: { type: 'ByUser' }, rules: [rule] } };
    assert.equal((await fx.request('POST', `${fc}/flowschemas`, { body: schema })).status, 201);
    const fsUID = await uidOf('flowschemas', 'tenant-slow');
    const get = (name: string) => fx.request('GET', `/api/v1/namespaces/default/configmaps/${name}`, { headers: bearer(slowToken) });
    await waitFor('the schema to classify', async () => (await get('quick')).headers['x-kubernetes-pf-flowschema-uid'] === fsUID);

    const first = get('slow-1');
    await new Promise((r) => setTimeout(r, 300));
    const second = await get('slow-2');
    assert.equal(second.status, 429, second.text);
    assert.equal(second.text, 'Too many requests, please try again later.\n');
    assert.equal(second.headers['retry-after'], '1');
    assert.equal(second.headers['x-kubernetes-pf-flowschema-uid'], fsUID);
    assert.equal(second.headers['x-kubernetes-pf-prioritylevel-uid'], await uidOf('prioritylevelconfigurations', 'tenant-slow'));
    assert.equal((await first).status, 404, 'the first one ran: the configmap does not exist');
    // The seat is free again.
    assert.equal((await get('quick')).status, 404);
    // Other users are not affected.
    assert.equal((await fx.request('GET', '/api/v1/namespaces/default/configmaps/slow-3')).status, 404);
  });

  it('a watch holds its seat only until its initial events are sent', async () => {
    const controller = new AbortController();
    const events: string[] = [];
    const opened = new Promise<void>((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port: fx.port, ca: fx.ca, path: '/api/v1/namespaces/default/configmaps?watch=1', headers: bearer(slowToken), signal: controller.signal },
        (res) => {
          assert.equal(res.statusCode, 200);
          assert.ok(res.headers['x-kubernetes-pf-flowschema-uid']);
          res.on('data', (c: Buffer) => events.push(c.toString()));
          res.on('error', () => undefined);
          resolve();
        },
      );
      req.on('error', (err) => (controller.signal.aborted ? undefined : reject(err)));
      req.end();
    });
    try {
      await opened;
      await new Promise((r) => setTimeout(r, 200));
      // The one seat of tenant-slow is free again while the watch goes on.
      const get = await fx.request('GET', '/api/v1/namespaces/default/configmaps/quick', { headers: bearer(slowToken) });
      assert.equal(get.status, 404, get.text);
      const dump = (await fx.request('GET', '/debug/api_priority_and_fairness/dump_priority_levels')).text;
      const row = dump.split('\n').find((l) => l.startsWith('tenant-slow,'))?.split(',').map((c) => c.trim());
      assert.equal(row?.[5], '0', `ExecutingRequests of tenant-slow: ${dump}`);
    } finally {
      controller.abort();
    }
  });

  it('sets the Dangling condition while the level is missing and clears it once it exists', async () => {
    const schema = { metadata: { name: 'dangler' }, spec: { priorityLevelConfiguration: { name: 'later' }, matchingPrecedence: 3000, rules: [] } };
    assert.equal((await fx.request('POST', `${fc}/flowschemas`, { body: schema })).status, 201);
    const condition = async () => (await fx.request('GET', `${fc}/flowschemas/dangler`)).json().status?.conditions?.find((c: any) => c.type === 'Dangling');
    await waitFor('Dangling=True', async () => (await condition())?.status === 'True');
    const dangling = await condition();
    assert.equal(dangling.reason, 'NotFound');
    assert.equal(dangling.message, 'This FlowSchema references the PriorityLevelConfiguration object named "later" but there is no such object');
    assert.match(dangling.lastTransitionTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const level = { metadata: { name: 'later' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } } } };
    assert.equal((await fx.request('POST', `${fc}/prioritylevelconfigurations`, { body: level })).status, 201);
    await waitFor('Dangling=False', async () => (await condition())?.status === 'False');
    const found = await condition();
    assert.equal(found.reason, 'Found');
    assert.equal(found.message, 'This FlowSchema references the PriorityLevelConfiguration object named "later" and it exists');
    const managers = (await fx.request('GET', `${fc}/flowschemas/dangler`)).json().metadata.managedFields?.map((m: any) => m.manager) ?? [];
    assert.ok(managers.includes('api-priority-and-fairness-config-consumer-v1'), `managers: ${managers.join(',')}`);
  });

  it('serves the debug dumps as text', async () => {
    for (const dump of ['dump_priority_levels', 'dump_queues', 'dump_requests', 'dump_requests?includeRequestDetails=1']) {
      const res = await fx.request('GET', `/debug/api_priority_and_fairness/${dump}`);
      assert.equal(res.status, 200, dump);
      assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    }
    const levels = (await fx.request('GET', '/debug/api_priority_and_fairness/dump_priority_levels')).text;
    for (const name of ['exempt', 'catch-all', 'global-default', 'tenant-slow']) assert.match(levels, new RegExp(`^${name},`, 'm'));
  });

  it('after a restart: deleted mandatory objects come back, a suggested one with auto-update off keeps its edit', async () => {
    const merge = { 'content-type': 'application/merge-patch+json' };
    assert.equal((await fx.request('DELETE', `${fc}/flowschemas/exempt`)).status, 200);
    assert.equal((await fx.request('DELETE', `${fc}/prioritylevelconfigurations/catch-all`)).status, 200);
    const edit = { metadata: { annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' } }, spec: { limited: { nominalConcurrencyShares: 77 } } };
    assert.equal((await fx.request('PATCH', `${fc}/prioritylevelconfigurations/workload-low`, { rawBody: JSON.stringify(edit), headers: merge })).status, 200);
    // While the exempt FlowSchema is gone its built-in definition still classifies system:masters.
    await fx.restart();
    await waitFor('the mandatory objects', async () => (await fx.request('GET', `${fc}/flowschemas/exempt`)).status === 200 && (await fx.request('GET', `${fc}/prioritylevelconfigurations/catch-all`)).status === 200);
    const catchAll = (await fx.request('GET', `${fc}/prioritylevelconfigurations/catch-all`)).json();
    assert.equal(catchAll.metadata.annotations['apf.kubernetes.io/autoupdate-spec'], 'true');
    assert.equal((await fx.request('GET', `${fc}/prioritylevelconfigurations/workload-low`)).json().spec.limited.nominalConcurrencyShares, 77);
  });
});

describe('--enable-priority-and-fairness=false', () => {
  const fx = useServer({}, ['--enable-priority-and-fairness=false']);

  it('classifies nothing: no headers, no dumps, no filter hooks; the configuration is still kept', async () => {
    const res = await fx.request('GET', '/api/v1/namespaces');
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-kubernetes-pf-flowschema-uid'], undefined);
    assert.equal(res.headers['x-kubernetes-pf-prioritylevel-uid'], undefined);
    assert.equal((await fx.request('GET', '/debug/api_priority_and_fairness/dump_priority_levels')).status, 404);
    const ready = (await fx.request('GET', '/readyz?verbose')).text;
    assert.doesNotMatch(ready, /priority-and-fairness-filter|priority-and-fairness-config-consumer/);
    assert.match(ready, /\[\+\]poststarthook\/priority-and-fairness-config-producer ok/);
  });
});
