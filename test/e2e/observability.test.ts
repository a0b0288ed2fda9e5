/**
 * End to end, issue 11's operator view: ONE server started as an operator starts kube-apiserver,
 * with client certificates, --authorization-mode=RBAC, an audit policy and a json audit log, driven
 * by the real kubectl:
 * 1. every kubectl request leaves its audit events, one per stage, with the certificate's user,
 *    kubectl's user agent and the Audit-Id the response carried (read from `kubectl -v=8`), and
 *    configmaps at RequestResponse carry the objects;
 * 2. `kubectl get --raw /metrics` is refused to a user without the non-resource permission and
 *    served to one in system:monitoring, and counts the requests kubectl made by verb, resource
 *    and code;
 * 3. `kubectl get --raw` reads /readyz?verbose and /livez/ping as kube's.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { kubeconfig } from '../../hack/run-local.js';
import { clientCert, createCertificateAuthority, type IssuedCertificate } from '../support/client-certs.js';
import { kubectl, type KubectlResult } from '../support/kubectl.js';
import { parsePromText, sumOf } from '../support/prom-text.js';
import { useServer } from '../support/server.js';

const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  nonResourceURLs: ['/readyz*', '/livez*', '/metrics', '/api*', '/openapi*', '/version']
- level: RequestResponse
  resources: [{ group: '', resources: [configmaps] }]
- level: Metadata
`;

let admin: IssuedCertificate;
let viewer: IssuedCertificate;
let monitor: IssuedCertificate;

const fx = useServer({}, async () => {
  const ca = await createCertificateAuthority('e2e-observability-ca');
  admin = await clientCert(ca, 'olga', ['system:masters']);
  viewer = await clientCert(ca, 'victor', ['viewers']);
  monitor = await clientCert(ca, 'mona', ['system:monitoring']);
  await writeFile(join(fx.dir, 'client-ca.crt'), ca.certPem);
  await writeFile(join(fx.dir, 'audit-policy.yaml'), policy);
  return [
    `--client-ca-file=${join(fx.dir, 'client-ca.crt')}`,
    '--anonymous-auth=false',
    '--authorization-mode=RBAC',
    `--audit-policy-file=${join(fx.dir, 'audit-policy.yaml')}`,
    `--audit-log-path=${join(fx.dir, 'audit.log')}`,
  ];
});

async function identity(name: string, cert: IssuedCertificate): Promise<string> {
  const path = join(fx.dir, `${name}.kubeconfig`);
  await writeFile(path, kubeconfig(`https://127.0.0.1:${fx.port}`, fx.ca, name, { clientCert: cert.cert, clientKey: cert.key }));
  return path;
}

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** The Audit-Id headers kubectl -v=8 printed, in order. */
function auditIds(stderr: string): string[] {
  return [...stderr.matchAll(/Audit-Id: ([0-9a-f-]{36})/g)].map((m) => m[1] as string);
}

interface LoggedEvent {
  auditID: string;
  stage: string;
  level: string;
  verb: string;
  user: { username: string; groups?: string[] };
  userAgent?: string;
  objectRef?: { resource?: string; namespace?: string; name?: string };
  responseStatus?: { code: number };
  requestObject?: { metadata?: { name?: string } };
  responseObject?: { metadata?: { name?: string } };
}

async function loggedEvents(): Promise<LoggedEvent[]> {
  // The log mode is blocking: an event is in the file before its response is sent.
  const text = await readFile(join(fx.dir, 'audit.log'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as LoggedEvent);
}

describe('operating the server with kubectl: audit, metrics, health', () => {
  it('audits every kubectl request with its user, user agent and Audit-Id', async () => {
    const kc = await identity('olga', admin);
    const created = await kubectl(kc, ['-v=8', 'create', 'configmap', 'audited', '--from-literal=k=v', '-n', 'default']);
    ok(created, 'create');
    const got = await kubectl(kc, ['-v=8', 'get', 'configmap', 'audited', '-n', 'default', '-o', 'json']);
    ok(got, 'get');
    const deleted = await kubectl(kc, ['-v=8', 'delete', 'configmap', 'audited', '-n', 'default']);
    ok(deleted, 'delete');
    const nsList = await kubectl(kc, ['-v=8', 'get', 'namespaces']);
    ok(nsList, 'get namespaces');

    const events = await loggedEvents();
    const byId = new Map<string, LoggedEvent[]>();
    for (const e of events) byId.set(e.auditID, [...(byId.get(e.auditID) ?? []), e]);
    const check = (stderr: string, verb: string, resource: string, level: string, code: number): LoggedEvent => {
      const ids = auditIds(stderr);
      assert.ok(ids.length > 0, `kubectl printed no Audit-Id:\n${stderr}`);
      const matched = ids.map((id) => byId.get(id) ?? []).find((evs) => evs.some((e) => e.verb === verb && e.objectRef?.resource === resource));
      assert.ok(matched, `no ${verb} ${resource} event for Audit-Ids ${ids.join(', ')}`);
      // RequestReceived is omitted by the policy: exactly one ResponseComplete per request.
      assert.deepEqual(
        matched.map((e) => e.stage),
        ['ResponseComplete'],
      );
      const e = matched[0] as LoggedEvent;
      assert.equal(e.level, level);
      assert.equal(e.user.username, 'olga');
      assert.ok(e.user.groups?.includes('system:masters') && e.user.groups.includes('system:authenticated'), JSON.stringify(e.user));
      assert.match(e.userAgent ?? '', /^kubectl/);
      assert.equal(e.responseStatus?.code, code);
      return e;
    };
    const create = check(created.stderr, 'create', 'configmaps', 'RequestResponse', 201);
    assert.equal(create.requestObject?.metadata?.name, 'audited');
    assert.equal(create.responseObject?.metadata?.name, 'audited');
    const get = check(got.stderr, 'get', 'configmaps', 'RequestResponse', 200);
    assert.equal(get.requestObject, undefined);
    assert.equal(get.responseObject?.metadata?.name, 'audited');
    check(deleted.stderr, 'delete', 'configmaps', 'RequestResponse', 200);
    const list = check(nsList.stderr, 'list', 'namespaces', 'Metadata', 200);
    assert.equal(list.responseObject, undefined);
    // Discovery and the other non-resource URLs the policy sets to None are not logged.
    assert.ok(!events.some((e) => (e as { requestURI?: string }).requestURI?.startsWith('/api?') || (e as { requestURI?: string }).requestURI === '/api'));
  });

  it('serves /metrics to system:monitoring only, counting what kubectl did', async () => {
    const victor = await identity('victor', viewer);
    const refused = await kubectl(victor, ['get', '--raw', '/metrics']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /forbidden/i);
    const mona = await identity('mona', monitor);
    const before = parsePromText(ok(await kubectl(mona, ['get', '--raw', '/metrics']), 'metrics'));
    const kc = await identity('olga', admin);
    for (let i = 0; i < 3; i++) ok(await kubectl(kc, ['create', 'configmap', `counted-${i}`, '-n', 'default']), 'create');
    assert.notEqual((await kubectl(kc, ['get', 'configmap', 'absent', '-n', 'default'])).code, 0);
    const after = parsePromText(ok(await kubectl(mona, ['get', '--raw', '/metrics']), 'metrics'));
    const delta = (labels: Record<string, string>): number => sumOf(after, 'apiserver_request_total', labels) - sumOf(before, 'apiserver_request_total', labels);
    assert.equal(delta({ verb: 'POST', resource: 'configmaps', code: '201', component: 'apiserver' }), 3);
    assert.equal(delta({ verb: 'GET', resource: 'configmaps', code: '404', component: 'apiserver' }), 1);
    assert.ok(sumOf(after, 'apiserver_request_duration_seconds_count', { verb: 'POST', resource: 'configmaps' }) >= 3);
    assert.ok(sumOf(after, 'apiserver_audit_event_total') > sumOf(before, 'apiserver_audit_event_total'));
    assert.ok(sumOf(after, 'etcd_request_duration_seconds_count') > 0);
  });

  it('answers kubectl get --raw for the health endpoints as kube does', async () => {
    const kc = await identity('olga', admin);
    const verbose = ok(await kubectl(kc, ['get', '--raw', '/readyz?verbose']), 'readyz');
    assert.match(verbose, /^\[\+\]ping ok$/m);
    assert.match(verbose, /^\[\+\]etcd ok$/m);
    assert.match(verbose, /^\[\+\]shutdown ok$/m);
    assert.match(verbose, /^readyz check passed$/m);
    assert.equal(ok(await kubectl(kc, ['get', '--raw', '/livez/ping']), 'livez/ping'), 'ok');
    const excluded = ok(await kubectl(kc, ['get', '--raw', '/livez?verbose&exclude=etcd']), 'livez exclude');
    assert.match(excluded, /^\[\+\]etcd excluded: ok$/m);
  });
});

