import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadPolicyFile, loadPolicyFromText } from './load.js';

const head = 'apiVersion: audit.k8s.io/v1\nkind: Policy\n';

function error(text: string): string {
  try {
    loadPolicyFromText(text);
  } catch (err) {
    return (err as Error).message;
  }
  return '';
}

describe('audit policy loading', () => {
  it('reads YAML and JSON', () => {
    const yaml = loadPolicyFromText(`${head}omitStages: [RequestReceived]\nrules:\n- level: Metadata\n  omitManagedFields: true\n`);
    assert.deepEqual(yaml.omitStages, ['RequestReceived']);
    assert.equal(yaml.rules[0]?.level, 'Metadata');
    assert.equal(yaml.rules[0]?.omitManagedFields, true);
    const json = loadPolicyFromText(JSON.stringify({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'None', users: ['x'] }] }));
    assert.deepEqual(json.rules[0]?.users, ['x']);
    assert.equal(json.rules[0]?.omitManagedFields, undefined);
  });

  it('accepts only audit.k8s.io/v1 Policy, with kube’s decoding errors', () => {
    assert.equal(
      error('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]\n'),
      'failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v1beta1" in scheme "k8s.io/apiserver/pkg/audit/scheme.go:30"',
    );
    assert.equal(error('apiVersion: audit.k8s.io/v1\nrules: []\n'), "failed decoding: Object 'Kind' is missing in 'apiVersion: audit.k8s.io/v1\nrules: []\n'");
    assert.equal(error('kind: Policy\n'), "failed decoding: Object 'apiVersion' is missing in 'kind: Policy\n'");
    assert.equal(error(`${head}rules: {level: None}\n`), 'failed decoding: json: cannot unmarshal object into Go struct field Policy.rules of type []v1.PolicyRule');
    assert.equal(error(`${head}rules:\n- level: 3\n`), 'failed decoding: json: cannot unmarshal number into Go struct field PolicyRule.rules.level of type v1.Level');
    assert.equal(error(`${head}rules:\n- level: None\n  users: [1]\n`), 'failed decoding: json: cannot unmarshal number into Go struct field PolicyRule.rules.users of type string');
    assert.match(error(`${head}rules: [\n`), /^failed decoding: error converting YAML to JSON: yaml: /);
  });

  it('warns about unknown fields and ignores them (kube’s lenient fallback)', () => {
    const warnings: string[] = [];
    const p = loadPolicyFromText(`${head}rules:\n- level: None\n  usres: [x]\n`, (m) => warnings.push(m));
    assert.deepEqual(p.rules[0]?.users, []);
    assert.deepEqual(warnings, ['Audit policy contains errors, falling back to lenient decoding: strict decoding error: unknown field "rules[0].usres"']);
  });

  it('validates as kube does, all errors at once', () => {
    assert.equal(error(`${head}rules:\n- users: [x]\n`), 'rules[0].level: Required value');
    assert.equal(error(`${head}rules:\n- level: Everything\n`), 'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"');
    assert.equal(
      error(`${head}rules:\n- level: None\n  nonResourceURLs: [healthz, "/a*b"]\n  omitStages: [Done]\n- level: None\n  resources: [{group: "Apps/v1", resourceNames: [x]}]\n  namespaces: [a]\n  nonResourceURLs: ["*"]\n`),
      '[' +
        [
          `rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character`,
          `rules[0].nonResourceURLs[1]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule`,
          'rules[0].omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
          `rules[1].resources.group: Invalid value: "Apps/v1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
          'rules[1].resources.resourceNames: Invalid value: []string{"x"}: using resourceNames requires at least one resource',
          'rules[1].nonResourceURLs: Invalid value: []string{"*"}: rules cannot apply to both regular resources and non-resource URLs',
        ].join(', ') +
        ']',
    );
    assert.equal(error(`${head}rules: []\n`), 'loaded illegal policy with 0 rules');
  });

  it('reads the file, naming it in errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'audit-policy-'));
    try {
      const path = join(dir, 'policy.yaml');
      await assert.rejects(loadPolicyFile(path), { message: `failed to read file path "${path}": open ${path}: no such file or directory` });
      await writeFile(path, `${head}rules: []\n`);
      await assert.rejects(loadPolicyFile(path), { message: `loaded illegal policy with 0 rules: from file ${path}` });
      await writeFile(path, `${head}rules: [{level: Metadata}]\n`);
      assert.equal((await loadPolicyFile(path)).rules.length, 1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
