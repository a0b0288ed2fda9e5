/**
 * The showcase with the real kubectl: a CRD with two versions converted by a webhook the
 * test starts (v1 host + port <-> v2 address), a CEL rule in each version, defaults, printer
 * columns and the status and scale subresources. kubectl applies it and an object, reads it in
 * both versions (the v2 read goes through the webhook), prints custom columns, scales it,
 * merge-patches it (and is refused by the CEL rule in kube's words), applies it server-side in
 * the other version, and explains the schema.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { startConversionWebhook, type TestConversionWebhook } from '../support/conversion-webhook.js';
import { kubectl } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

const fx = useServer();
let hook: TestConversionWebhook;
const group = 'show.example.com';

function crd(): Record<string, unknown> {
  const status = { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } };
  const common = { replicas: { type: 'integer', minimum: 0, default: 1, description: 'How many backend replicas run.' }, tier: { type: 'string', enum: ['standard', 'premium'], default: 'standard', description: 'The service tier.' } };
  const version = (name: string, storage: boolean, spec: Record<string, unknown>, rule: Record<string, unknown>, columns: unknown[]) => ({
    name,
    served: true,
    storage,
    schema: { openAPIV3Schema: { type: 'object', description: 'A Backend is a service endpoint with replicas.', properties: { spec: { type: 'object', description: 'The desired backend.', properties: { ...spec, ...common }, 'x-kubernetes-validations': [rule] }, status } } },
    subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
    additionalPrinterColumns: [...columns, { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' }, { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }],
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `backends.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'backends', singular: 'backend', kind: 'Backend', shortNames: ['be'] },
      versions: [
        version(
          'v1',
          true,
          { host: { type: 'string', description: 'The host name.' }, port: { type: 'integer', minimum: 1, maximum: 65535, description: 'The TCP port.' } },
          { rule: '!has(self.port) || self.port != 22', message: 'port 22 is reserved' },
          [{ name: 'Host', type: 'string', jsonPath: '.spec.host' }, { name: 'Port', type: 'integer', jsonPath: '.spec.port' }],
        ),
        version(
          'v2',
          false,
          { address: { type: 'string', pattern: '^[^:]+:[0-9]+$', description: 'host:port.' } },
          { rule: "!has(self.address) || !self.address.endsWith(':22')", message: 'port 22 is reserved' },
          [{ name: 'Address', type: 'string', jsonPath: '.spec.address' }],
        ),
      ],
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: hook.url('/convert'), caBundle: hook.caBundle } } },
    },
  };
}

async function run(args: string[], input?: string): Promise<string> {
  const r = await kubectl(fx.kubeconfigPath, args, input !== undefined ? { input } : {});
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

async function fails(args: string[], input?: string): Promise<string> {
  const r = await kubectl(fx.kubeconfigPath, args, input !== undefined ? { input } : {});
  assert.notEqual(r.code, 0, `kubectl ${args.join(' ')} should fail: ${r.stdout}`);
  return r.stderr;
}

async function until(fn: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (Date.now() < end) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('a two-version CRD with a conversion webhook, driven by kubectl', () => {
  before(async () => {
    hook = await startConversionWebhook();
  });
  after(() => hook?.stop());

  it('apply, get in both versions, custom columns, scale, patch, server-side apply and explain', async () => {
    assert.match(await run(['apply', '-f', '-'], stringify(crd())), /customresourcedefinition.apiextensions.k8s.io\/backends.show.example.com created/);
    await run(['wait', '--for=condition=Established', '--timeout=10s', `crd/backends.${group}`]);
    await until(async () => (await fx.request('GET', `/apis/${group}/v2/namespaces/default/backends`)).status === 200, 'v2 served');

    const v1Object = { apiVersion: `${group}/v1`, kind: 'Backend', metadata: { name: 'db', namespace: 'default' }, spec: { host: 'db.local', port: 5432 } };
    assert.match(await run(['apply', '-f', '-'], stringify(v1Object)), /backend.show.example.com\/db created/);

    // kubectl prefers v2 (kube's version priority): its reads go through the webhook, with v2's columns.
    const before = hook.reviews('/convert').length;
    assert.match(await run(['get', 'backends']), /^NAME\s+ADDRESS\s+REPLICAS\s+AGE\ndb\s+db\.local:5432\s+1\s+\d+s\n$/);
    assert.ok(hook.reviews('/convert').length > before, 'the webhook converted the v2 read');
    // v1, the stored version, with its own columns; the defaults were applied.
    assert.match(await run(['get', `backends.v1.${group}`]), /^NAME\s+HOST\s+PORT\s+REPLICAS\s+AGE\ndb\s+db\.local\s+5432\s+1\s+\d+s\n$/);
    assert.match(await run(['get', 'be', '-o', 'custom-columns=NAME:.metadata.name,TIER:.spec.tier,REPLICAS:.spec.replicas,VERSION:.apiVersion']), /^NAME\s+TIER\s+REPLICAS\s+VERSION\ndb\s+standard\s+1\s+show\.example\.com\/v2\n$/);

    // The scale subresource (in v2, converted both ways).
    assert.match(await run(['scale', 'backend/db', '--replicas=3']), /backend.show.example.com\/db scaled/);
    assert.equal(await run(['get', `backends.v1.${group}`, 'db', '-o', 'jsonpath={.spec.replicas}']), '3');

    // Merge patches the CEL rules refuse, in kube's words (v2's rule, then v1's), then one v1 accepts.
    const refusedV2 = await fails(['patch', 'backend', 'db', '--type=merge', '-p', '{"spec":{"address":"db.local:22"}}']);
    assert.match(refusedV2, /The Backend "db" is invalid: spec: Invalid value: "object": port 22 is reserved/);
    const refusedV1 = await fails(['patch', `backends.v1.${group}`, 'db', '--type=merge', '-p', '{"spec":{"port":22}}']);
    assert.match(refusedV1, /The Backend "db" is invalid: spec: Invalid value: "object": port 22 is reserved/);
    await run(['patch', `backends.v1.${group}`, 'db', '--type=merge', '-p', '{"spec":{"port":6432}}']);
    assert.equal(await run(['get', 'backend', 'db', '-o', 'jsonpath={.spec.address}']), 'db.local:6432');

    // Server-side apply in v2: converted to the stored v1 by the webhook.
    const v2Object = { apiVersion: `${group}/v2`, kind: 'Backend', metadata: { name: 'db', namespace: 'default' }, spec: { address: 'db2.local:7000', tier: 'premium' } };
    assert.match(await run(['apply', '--server-side', '--field-manager=show', '--force-conflicts', '-f', '-'], stringify(v2Object)), /backend.show.example.com\/db serverside-applied/);
    assert.equal(await run(['get', `backends.v1.${group}`, 'db', '-o', 'jsonpath={.spec.host} {.spec.port} {.spec.tier}']), 'db2.local 7000 premium');
    const managers = await run(['get', 'backend', 'db', '--show-managed-fields', '-o', 'jsonpath={.metadata.managedFields[*].manager}']);
    assert.match(managers, /\bshow\b/);

    // kubectl explain reads the published schema.
    const explained = await run(['explain', 'backends.spec']);
    assert.match(explained, /KIND:\s+Backend/);
    assert.match(explained, /address\s+<string>/);
    assert.match(explained, /host:port\./);
    const explainedV1 = await run(['explain', 'backends.spec', `--api-version=${group}/v1`]);
    assert.match(explainedV1, /port\s+<integer>/);
    assert.match(explainedV1, /The TCP port\./);

    assert.match(await run(['delete', 'backend', 'db']), /backend.show.example.com "db" deleted/);
  });
});
