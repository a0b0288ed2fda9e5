/**
 * Operator-sized CRDs against real etcd (test/fixtures/crds/operators.ts): each installs and is
 * served once Established; valid instances are accepted (with their schema defaults applied) and
 * invalid ones get 422 Invalid with the causes kube gives: field paths into deep embedded core
 * types, reasons for types, bounds, enums, required fields, duplicates in sets and map lists, and
 * the messages of CEL rules (fieldPath, messageExpression, reason, transition rules).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';
import { operatorFixtures, type OperatorFixture } from '../fixtures/crds/operators.js';
import { schemaLines } from '../fixtures/crds/controller-gen.js';

const fx = useServer();
const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

interface Cause {
  readonly field?: string;
  readonly reason?: string;
  readonly message?: string;
}

async function install(f: OperatorFixture): Promise<void> {
  const res = await fx.request('POST', crds, { body: f.crd });
  assert.equal(res.status, 201, res.text);
  const name = (f.crd.metadata as { name: string }).name;
  const deadline = Date.now() + 5_000;
  for (;;) {
    const got = await fx.request('GET', `${crds}/${name}`);
    const conditions = (got.json<{ status?: { conditions?: Array<{ type: string; status: string }> } }>().status?.conditions ?? []);
    const established = conditions.some((c) => c.type === 'Established' && c.status === 'True');
    if (established && (await fx.request('GET', `${f.collection}?limit=1`)).status === 200) return;
    assert.ok(Date.now() < deadline, `${name} not served within 5 s: ${JSON.stringify(conditions)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('operator-sized CRDs', () => {
  for (const f of operatorFixtures()) {
    const name = (f.crd.metadata as { name: string }).name;
    it(`${name} installs, accepts valid instances and refuses invalid ones with kube's causes`, async () => {
      const versions = (f.crd.spec as { versions: Array<{ schema: { openAPIV3Schema: unknown } }> }).versions;
      const lines = schemaLines(versions[0]?.schema.openAPIV3Schema);
      await install(f);
      for (const obj of f.valid) {
        const res = await fx.request('POST', f.collection, { body: obj });
        assert.equal(res.status, 201, `${(obj.metadata as { name: string }).name}: ${res.text}`);
      }
      for (const c of f.invalid) {
        let path = f.collection;
        let method = 'POST';
        let body = c.object;
        if (c.from) {
          const created = await fx.request('POST', f.collection, { body: c.from });
          assert.equal(created.status, 201, `${c.name}: ${created.text}`);
          const meta = created.json<{ metadata: { name: string; resourceVersion: string } }>().metadata;
          path = `${f.collection}/${meta.name}`;
          method = 'PUT';
          body = { ...c.object, metadata: { ...(c.object.metadata as object), resourceVersion: meta.resourceVersion } };
        }
        const res = await fx.request(method, path, { body });
        assert.equal(res.status, 422, `${c.name}: ${res.text}`);
        const status = res.json<{ reason: string; details: { causes?: Cause[] } }>();
        assert.equal(status.reason, 'Invalid', c.name);
        const causes = status.details.causes ?? [];
        for (const want of c.causes) {
          const hit = causes.find((got) => got.field === want.field && got.reason === want.reason && (!want.message || (got.message ?? '').includes(want.message)));
          assert.ok(hit, `${c.name}: no cause ${JSON.stringify(want)} in ${JSON.stringify(causes)}`);
        }
      }
      // The schema is operator-sized: the Postgres one embeds a whole PodTemplateSpec.
      if (name.startsWith('postgresclusters.')) assert.ok(lines > 3000, `schema of ${lines} lines`);
    });
  }

  it('applies schema defaults, including those of embedded core types', async () => {
    const got = await fx.request('GET', '/apis/db.example.com/v1/namespaces/default/postgresclusters/pg-full');
    assert.equal(got.status, 200, got.text);
    const spec = got.json<{ spec: { backups: { retentionDays: number }; users: Array<{ superuser: boolean }>; podTemplate: { spec: { containers: Array<{ ports: Array<{ protocol: string }> }> } } } }>().spec;
    assert.equal(spec.backups.retentionDays, 7);
    assert.equal(spec.users[1]?.superuser, false);
    assert.equal(spec.podTemplate.spec.containers[0]?.ports[0]?.protocol, 'TCP');
    const cert = await fx.request('GET', '/apis/certs.example.com/v1/namespaces/default/certificates/client');
    const issuer = cert.json<{ spec: { issuerRef: { kind: string; group: string }; privateKey?: unknown } }>().spec.issuerRef;
    assert.deepEqual(issuer, { name: 'ca', kind: 'ClusterIssuer', group: 'certs.example.com' });
  });

  it('prunes unknown fields, and fieldValidation=Strict refuses them', async () => {
    const body = { apiVersion: 'ci.example.com/v2', kind: 'Pipeline', metadata: { name: 'pruned' }, spec: { tasks: [{ name: 'a', image: 'x', colour: 'blue' }], params: { kept: true } } };
    const strict = await fx.request('POST', '/apis/ci.example.com/v2/namespaces/default/pipelines?fieldValidation=Strict', { body });
    assert.equal(strict.status, 400, strict.text);
    assert.match(strict.text, /unknown field \\?"spec\.tasks\[0\]\.colour\\?"/);
    const res = await fx.request('POST', '/apis/ci.example.com/v2/namespaces/default/pipelines?fieldValidation=Ignore', { body });
    assert.equal(res.status, 201, res.text);
    const spec = res.json<{ spec: { tasks: Array<Record<string, unknown>>; params: unknown } }>().spec;
    assert.equal(spec.tasks[0]?.colour, undefined);
    assert.deepEqual(spec.params, { kept: true });
  });
});
