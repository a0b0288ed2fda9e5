/**
 * End to end: `kubectl explain` of a custom resource reads the CRD's schema from the server's
 * OpenAPI: /openapi/v3 (kubectl 1.27+'s default) and /openapi/v2 in gnostic protobuf
 * (--output=plaintext-openapiv2), with kubectl 1.32 (PATH) and 1.27, descriptions and types of
 * nested fields included. Needs discovery of the resource (custom resource serving) and the
 * Established condition (the CRD controllers).
 */
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { kubectl, type KubectlResult } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

const fx = useServer();

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {kind: CronTab, plural: crontabs, singular: crontab, shortNames: [ct]}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: CronTab runs a command on a schedule.
        properties:
          spec:
            type: object
            description: CronTabSpec is the desired schedule of the crontab.
            required: [cronSpec]
            properties:
              cronSpec:
                type: string
                description: The cron schedule, in the five-field cron format.
              replicas:
                type: integer
                description: How many runs may overlap.
              jobTemplate:
                type: object
                description: The job each run creates.
                properties:
                  image: {type: string, description: The container image of the job.}
              port: {x-kubernetes-int-or-string: true, description: A port name or number.}
              policy: {type: string, enum: [Allow, Forbid], default: Allow, description: How runs overlap.}
              note: {type: string, nullable: true}
              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
              template: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
              tags: {type: array, items: {type: string}, x-kubernetes-list-type: set}
            x-kubernetes-validations:
            - {rule: "!has(self.replicas) || self.replicas <= 10", message: at most 10 replicas}
`;

/** Versions of kubectl to drive: the one on PATH and the oldest shipped. */
const versions: (string | undefined)[] = [undefined, '1.27'];

describe('kubectl explain of a custom resource', () => {
  before(async () => {
    ok(await kubectl(fx.kubeconfigPath, ['apply', '-f', '-'], { input: crd }), 'apply CRD');
    ok(await kubectl(fx.kubeconfigPath, ['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=20s']), 'wait Established');
  });

  for (const version of versions) {
    const name = version ? `kubectl ${version}` : 'kubectl (PATH)';
    // A fresh cache per run: discovery and OpenAPI are fetched from the server, not from an earlier test.
    const explain = async (args: string[]): Promise<string> => {
      const cache = await mkdtemp(join(tmpdir(), 'kubectl-cache-'));
      return ok(await kubectl(fx.kubeconfigPath, ['explain', '--cache-dir', cache, ...args], version ? { version } : {}), `${name} explain ${args.join(' ')}`);
    };

    it(`${name}: explains a nested object from /openapi/v3`, async () => {
      const out = await explain(['crontabs.spec']);
      assert.match(out, /KIND:\s+CronTab/);
      assert.match(out, /FIELD:\s+spec\s+<Object>/);
      assert.match(out, /CronTabSpec is the desired schedule of the crontab\./);
      assert.match(out, /cronSpec\s+<string>\s+-required-/);
      assert.match(out, /The cron schedule, in the five-field cron format\./);
      assert.match(out, /replicas\s+<integer>/);
      assert.match(out, /jobTemplate\s+<Object>/);
    });

    it(`${name}: explains a leaf field from /openapi/v3`, async () => {
      const out = await explain(['crontabs.spec.cronSpec']);
      assert.match(out, /FIELD:\s+cronSpec\s+<string>/);
      assert.match(out, /The cron schedule, in the five-field cron format\./);
      const deep = await explain(['ct.spec.jobTemplate.image']);
      assert.match(deep, /The container image of the job\./);
      assert.match(await explain(['crontabs.spec.port']), /A port name or number\./);
    });

    it(`${name}: explains from /openapi/v2 (protobuf)`, async () => {
      const out = await explain(['crontabs.spec', '--output=plaintext-openapiv2']);
      assert.match(out, /KIND:\s+CronTab/);
      assert.match(out, /VERSION:\s+stable\.example\.com\/v1/);
      assert.match(out, /CronTabSpec is the desired schedule of the crontab\./);
      assert.match(out, /cronSpec\s+<string>\s+-required-/);
      const leaf = await explain(['crontabs.spec.cronSpec', '--output=plaintext-openapiv2']);
      assert.match(leaf, /FIELD:\s+cronSpec\s+<string>/);
      assert.match(leaf, /The cron schedule, in the five-field cron format\./);
      assert.match(await explain(['crontabs.spec.policy', '--output=plaintext-openapiv2']), /How runs overlap\./);
    });
  }
});
