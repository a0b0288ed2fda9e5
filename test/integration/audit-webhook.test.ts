/**
 * The audit webhook backend as users run it: kube-apiserver's flags (--audit-policy-file,
 * --audit-webhook-config-file, batch mode by default) and a real HTTPS receiver; every event of
 * the requests made must reach it, also when it fails a few calls.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startAuditWebhookReceiver, type AuditWebhookReceiver } from '../support/audit-webhook-receiver.js';
import { tempDir, writeTemp } from '../support/client-certs.js';
import { useServer, type TestResponse } from '../support/server.js';

let receiver: AuditWebhookReceiver | undefined;

const fx = useServer({}, async () => {
  receiver = await startAuditWebhookReceiver();
  const dir = await tempDir('capstan-audit-webhook-');
  const policy = await writeTemp(dir, 'audit-policy.yaml', ['apiVersion: audit.k8s.io/v1', 'kind: Policy', 'rules:', '- level: Metadata', ''].join('\n'));
  return [
    `--audit-policy-file=${policy}`,
    `--audit-webhook-config-file=${await receiver.writeKubeconfig(dir)}`,
    '--audit-webhook-batch-max-wait=100ms',
    '--audit-webhook-initial-backoff=50ms',
  ];
});
// After the server's own after hook, which stops it (and flushes its audit backends) first.
after(async () => {
  await receiver?.stop();
});

const cms = '/api/v1/namespaces/default/configmaps';

interface Made {
  readonly verb: string;
  readonly uri: string;
  readonly res: TestResponse;
}

/** The events of one request, found by the Audit-Id its answer carried. */
function eventsOf(events: any[], m: Made): any[] {
  return events.filter((e) => e.auditID === m.res.headers['audit-id']);
}

async function expectAudited(made: readonly Made[]): Promise<void> {
  await receiver!.waitFor((events) => made.every((m) => eventsOf(events, m).some((e) => e.stage === 'ResponseComplete')));
  for (const m of made) {
    const evs = eventsOf(receiver!.events, m);
    assert.deepEqual(evs.map((e) => e.stage).sort(), ['RequestReceived', 'ResponseComplete'], `${m.verb} ${m.uri}: ${JSON.stringify(evs)}`);
    for (const e of evs) assert.deepEqual([e.verb, e.requestURI], [m.verb, m.uri]);
    const done = evs.find((e) => e.stage === 'ResponseComplete');
    assert.equal(done.level, 'Metadata');
    assert.equal(done.responseStatus.code, m.res.status);
    assert.equal(done.kind, undefined, 'EventList items carry no kind of their own');
  }
}

async function makeRequests(name: string): Promise<Made[]> {
  const made: Made[] = [];
  const call = async (method: string, verb: string, uri: string, body?: unknown): Promise<void> => {
    const res = await fx.request(method, uri, body === undefined ? {} : { body });
    assert.match(String(res.headers['audit-id']), /^[0-9a-f-]{36}$/, `${method} ${uri} answers an Audit-Id`);
    made.push({ verb, uri, res });
  };
  await call('POST', 'create', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });
  await call('GET', 'get', `${cms}/${name}`);
  await call('GET', 'get', `${cms}/${name}-missing`);
  await call('DELETE', 'delete', `${cms}/${name}`);
  assert.deepEqual(made.map((m) => m.res.status), [201, 200, 404, 200]);
  return made;
}

describe('audit webhook backend (--audit-webhook-config-file)', () => {
  it('delivers every event of the requests, in EventLists, to the webhook', async () => {
    await expectAudited(await makeRequests('audit-webhook-a'));
    assert.ok(receiver!.lists.every((l) => l.kind === 'EventList' && l.apiVersion === 'audit.k8s.io/v1'));
    assert.ok(receiver!.calls.every((c) => c.authorization === `Bearer ${receiver!.token}`));
  });

  it('retries after the webhook fails twice, losing and repeating nothing', async () => {
    const before = receiver!.calls.length;
    receiver!.failNext(2, 500);
    const made = await makeRequests('audit-webhook-b');
    await expectAudited(made);
    const statuses = receiver!.calls.slice(before).map((c) => c.status);
    assert.deepEqual(statuses.slice(0, 3), [500, 500, 200]);
    const keys = receiver!.events.map((e) => `${e.auditID}/${e.stage}`);
    assert.equal(new Set(keys).size, keys.length, 'no event delivered twice');
  });
});
