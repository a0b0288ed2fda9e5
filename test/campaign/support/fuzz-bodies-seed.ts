/**
 * The body fuzzer's starting state: the namespace, the widgets custom resource (structural
 * schema, with spec.extra keeping unknown fields), and three seeded objects of every resource for updates and patches to target.
 */
import assert from 'node:assert/strict';
import { createEstablishedCrd, type Requester } from '../../support/crds.js';
import type { TestResponse } from '../../support/server.js';
import { widgetCrd } from '../../support/crds.js';
import { fuzzNamespace, fuzzResources, validObject } from './fuzz-bodies-resources.js';
import type { FuzzTarget } from './fuzz-bodies-target.js';

/** target as the shared CRD helpers want it. */
export function requester(target: FuzzTarget): Requester {
  return {
    request: async (method, path, opts = {}): Promise<TestResponse> => {
      const body = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
      const r = await target.send(method, path, body, { ...(body ? { 'content-type': 'application/json' } : {}), ...opts.headers });
      return { status: r.status, headers: { 'content-type': r.contentType }, body: Buffer.from(r.text), text: r.text, json: () => JSON.parse(r.text) };
    },
  };
}

/** Creates the namespace, the CRD and the seeds; returns the names that exist, per key prefix. */
export async function seedFuzzTarget(target: FuzzTarget): Promise<Map<string, Set<string>>> {
  const req = requester(target);
  const ns = await req.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: fuzzNamespace } } });
  assert.equal(ns.status, 201, ns.text);
  // spec.extra keeps unknown fields, where the reserved-key generator writes nested objects.
  const crd = widgetCrd();
  crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.extra = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  await createEstablishedCrd(req, crd);
  const existing = new Map<string, Set<string>>();
  for (const r of fuzzResources) {
    const names = new Set<string>();
    for (const name of r.seeds) {
      const obj = validObject(r, name, { labels: { seed: 'yes' }, annotations: { seed: 'yes' } });
      // The widget's CRD was just established: its endpoint may take a moment to serve.
      let res = await req.request('POST', r.path, { body: obj });
      for (let i = 0; i < 50 && res.status === 404; i++) {
        await new Promise((done) => setTimeout(done, 100));
        res = await req.request('POST', r.path, { body: obj });
      }
      assert.equal(res.status, 201, `seeding ${r.kind} ${name}: ${res.text}`);
      names.add(name);
    }
    existing.set(r.keyPrefix, names);
  }
  return existing;
}
