/**
 * --tracing-config-file against a real etcd: an OTLP receiver (test/support/otlp-receiver.ts) and
 * an authorization webhook started here. A create by a system:monitoring user continues the
 * client's trace (request -> authentication, authorization -> webhook call, admission, etcd Txn,
 * parent by parent) and the webhook receives a traceparent in that trace; anyone else's request
 * starts its own trace linking the client's. Without the file nothing is traced: no storage for
 * trace context is ever made and webhooks get no traceparent.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { traceStorageCreated } from '../../internal/observability/tracing/context.js';
import { createCertificateAuthority, issueCertificate } from '../../internal/server/pki.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { useServer } from '../support/server.js';
import { bearer, tokenAuthFileFlag } from '../support/static-tokens.js';

/** An authorization webhook allowing everything, keeping each call's traceparent header. */
interface AuthzWebhook {
  readonly traceparents: Array<string | undefined>;
  flags(dir: string): Promise<string[]>;
  stop(): Promise<void>;
}

async function startAuthzWebhook(): Promise<AuthzWebhook> {
  const ca = await createCertificateAuthority('tracing-authz-ca');
  const serving = await issueCertificate(ca, { commonName: 'authz', usage: 'server', ips: ['127.0.0.1'] });
  const traceparents: Array<string | undefined> = [];
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    req.resume();
    req.on('end', () => {
      traceparents.push(req.headers.traceparent as string | undefined);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status: { allowed: true } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    traceparents,
    async flags(dir) {
      const file = join(dir, 'authz.kubeconfig');
      const server_ = `https://127.0.0.1:${(server.address() as AddressInfo).port}/authorize`;
      await writeFile(
        file,
        `apiVersion: v1\nkind: Config\nclusters:\n- name: authz\n  cluster:\n    server: ${server_}\n    certificate-authority-data: ${Buffer.from(ca.certPem).toString('base64')}\nusers:\n- name: apiserver\n  user: {}\ncontexts:\n- name: authz\n  context: {cluster: authz, user: apiserver}\ncurrent-context: authz\n`,
      );
      return ['--authorization-mode=Webhook', `--authorization-webhook-config-file=${file}`, '--authorization-webhook-cache-authorized-ttl=0s'];
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

const users = [
  { token: 'monitor-token', name: 'prometheus', uid: 'u-1', groups: ['system:monitoring'] },
  { token: 'alice-token', name: 'alice', uid: 'u-2', groups: ['devs'] },
];

/** A sampled client trace context. */
function clientContext(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });

// Runs first, while nothing in this process has turned tracing on.
describe('without --tracing-config-file', () => {
  let webhook: AuthzWebhook;
  const fx = useServer({}, async () => {
    webhook = await startAuthzWebhook();
    return [await tokenAuthFileFlag(users), ...(await webhook.flags(fx.dir))];
  });
  after(() => webhook?.stop());

  it('traces nothing: no trace context storage is made and webhooks get no traceparent', async () => {
    const client = clientContext();
    const res = await fx.request('POST', '/api/v1/namespaces/default/configmaps', { body: configMap('untraced'), headers: { ...bearer('monitor-token'), traceparent: client.traceparent } });
    assert.equal(res.status, 201, res.text);
    assert.ok(webhook.traceparents.length > 0);
    assert.deepEqual(webhook.traceparents.filter((t) => t !== undefined), []);
    assert.equal(traceStorageCreated(), false);
  });
});

describe('--tracing-config-file', () => {
  let receiver: OtlpReceiver;
  let webhook: AuthzWebhook;
  before(() => {
    // Export every 50 ms rather than OTel's 5 s (the batch processor reads OTEL_BSP_*).
    process.env.OTEL_BSP_SCHEDULE_DELAY = '50';
  });
  const fx = useServer({}, async () => {
    receiver = await startOtlpReceiver();
    webhook = await startAuthzWebhook();
    const config = join(fx.dir, 'tracing.yaml');
    await writeFile(config, `apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\nendpoint: ${receiver.endpoint}\nsamplingRatePerMillion: 1000000\n`);
    return [`--tracing-config-file=${config}`, await tokenAuthFileFlag(users), ...(await webhook.flags(fx.dir))];
  });
  after(async () => {
    delete process.env.OTEL_BSP_SCHEDULE_DELAY;
    await webhook?.stop();
    await receiver?.stop();
  });

  const inTrace = (traceId: string, spans: readonly ReceivedSpan[]) => spans.filter((s) => s.traceId === traceId);
  const one = (spans: readonly ReceivedSpan[], name: string, parent?: ReceivedSpan): ReceivedSpan => {
    const found = spans.filter((s) => s.name === name && (parent === undefined || s.parentSpanId === parent.spanId));
    assert.equal(found.length, 1, `one ${name}${parent ? ` under ${parent.name}` : ''} in ${spans.map((s) => `${s.name}<${s.parentSpanId}`).join(', ')}`);
    return found[0] as ReceivedSpan;
  };

  it("continues a system:monitoring client's trace: request, authentication, authorization and its webhook call, admission, etcd", async () => {
    const client = clientContext();
    const res = await fx.request('POST', '/api/v1/namespaces/default/configmaps', { body: configMap('traced'), headers: { ...bearer('monitor-token'), traceparent: client.traceparent } });
    assert.equal(res.status, 201, res.text);
    const spans = inTrace(client.traceId, await receiver.waitFor((all) => inTrace(client.traceId, all).some((s) => s.kind === 'SPAN_KIND_SERVER')));
    const request = one(spans, 'POST /api/v1/namespaces/{:namespace}/configmaps');
    assert.equal(request.kind, 'SPAN_KIND_SERVER');
    assert.equal(request.parentSpanId, client.spanId);
    assert.equal(request.attributes['http.method'], 'POST');
    assert.equal(request.attributes['http.target'], '/api/v1/namespaces/default/configmaps');
    assert.equal(request.attributes['http.status_code'], 201);
    assert.equal(request.resource['service.name'], 'apiserver');
    assert.match(String(request.resource['service.instance.id']), /^apiserver-[a-z2-7]{26}$/);

    one(spans, 'authentication', request);
    const authorization = one(spans, 'authorization', request);
    const call = one(spans, 'HTTP POST', authorization);
    assert.equal(call.kind, 'SPAN_KIND_CLIENT');
    assert.equal(call.attributes['http.status_code'], 200);
    // The webhook continues the trace from the call's span.
    assert.ok(webhook.traceparents.includes(`00-${client.traceId}-${call.spanId}-01`), webhook.traceparents.join(' '));

    // The default chain has mutating plugins for a create (the mutating webhook plugin among them).
    const mutating = one(spans, 'mutating admission', request);
    assert.ok(String(mutating.attributes.plugins).split(',').includes('MutatingAdmissionWebhook'), String(mutating.attributes.plugins));
    const validating = one(spans, 'validating admission', request);
    // The validating plugins that handle a create, in chain order (more join as they are built).
    assert.equal(String(validating.attributes.plugins).split(',')[0], 'NamespaceLifecycle');
    assert.equal(validating.attributes.operation, 'CREATE');
    const txn = one(spans, 'etcdserverpb.KV/Txn', request);
    assert.equal(txn.kind, 'SPAN_KIND_CLIENT');
    assert.equal(txn.attributes.key, '/registry/configmaps/default/traced');
    assert.equal(txn.attributes['rpc.system'], 'grpc');
    assert.equal(txn.attributes['rpc.grpc.status_code'], 0);
    for (const s of spans) assert.ok(s.startNs >= request.startNs && s.endNs <= request.endNs, `${s.name} within the request`);
  });

  it("starts its own trace for anyone else, linking the client's, and propagates that one", async () => {
    const client = clientContext();
    const res = await fx.request('POST', '/api/v1/namespaces/default/configmaps', { body: configMap('linked'), headers: { ...bearer('alice-token'), traceparent: client.traceparent } });
    assert.equal(res.status, 201, res.text);
    const linked = (all: readonly ReceivedSpan[]) => all.find((s) => s.kind === 'SPAN_KIND_SERVER' && s.links.some((l) => l.traceId === client.traceId && l.spanId === client.spanId));
    const request = linked(await receiver.waitFor((all) => linked(all) !== undefined)) as ReceivedSpan;
    assert.notEqual(request.traceId, client.traceId);
    assert.equal(request.parentSpanId, '');
    assert.equal(inTrace(client.traceId, receiver.spans).length, 0);
    const spans = inTrace(request.traceId, await receiver.waitFor((all) => inTrace(request.traceId, all).some((s) => s.name === 'HTTP POST')));
    const call = one(spans, 'HTTP POST', one(spans, 'authorization', request));
    assert.ok(webhook.traceparents.includes(`00-${request.traceId}-${call.spanId}-01`));
    assert.equal(traceStorageCreated(), true);
  });
});
