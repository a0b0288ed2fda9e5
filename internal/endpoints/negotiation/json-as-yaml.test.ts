import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse as yamlParse } from 'yaml';
import { parseJsonAsYaml } from './json-as-yaml.js';
import { parseBodyStrict } from './body.js';

const yaml11 = (text: string): unknown => yamlParse(text, { version: '1.1', uniqueKeys: false, maxAliasCount: 100 }) as unknown;

const fast = [
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"app":"web"}},"data":{"k":"1","pad":"xxxx"}}',
  '{\n  "apiVersion": "apps/v1",\n  "kind": "Deployment",\n  "metadata": {"name": "d"},\n  "spec": {"replicas": 3, "paused": false, "minReadySeconds": -5, "template": {"spec": {"containers": [{"name": "c", "image": "nginx:1.25", "ports": [{"containerPort": 80}], "args": [], "env": null}]}}}\n}',
  '{"metadata":{"name":"ünïcødé","annotations":{"note":"日本語 # not a comment: {x} [y], z"}},"data":{"":"", "0": "zero", "10": "ten", "yes": "no", "on": "off"}}',
  '{"spec":{"n":0,"big":999999999999999,"list":[1,-2,[3,[]],{}]}}',
  '  {"a":true,"b":null,"c":"null","d":"true","e":"2001-12-14t21:59:43.10-05:00","f":"0x1F","g":"1e3","h":"~"}',
];

const slow = [
  '{"a":1.5}',
  '{"a":1e3}',
  '{"a":-0}',
  '{"a":12345678901234567}',
  '{"a":"line\\nbreak"}',
  '{"a":"\\u00e9"}',
  '{"a":1,"a":2}',
  '{"<<":{"b":1}}',
  '{"__proto__":{"b":1}}',
  '{"a":"tab\there"}',
  `{"${'k'.repeat(1100)}":1}`,
  '{"a":"next\u0085line"}',
  'a: 1',
  '[1, 2]',
  '{"a":1',
  '{"a":1} trailing',
];

test('JSON documents read as YAML give YAML 1.1 values', () => {
  for (const text of fast) {
    const got = parseJsonAsYaml(text);
    assert.ok(got, `fast path expected for ${text}`);
    // Key order too: JSON.stringify writes keys in the order the parser stored them.
    assert.equal(JSON.stringify(got.value), JSON.stringify(yaml11(text)), text);
  }
});

test('documents where JSON and YAML could differ are left to the YAML parser', () => {
  for (const text of slow) assert.equal(parseJsonAsYaml(text), undefined, text);
});

test('parseBodyStrict on YAML gives the same answer whichever parser reads it', () => {
  for (const text of [...fast, '{"a":1,"a":2}', '{"a":1.5,"b":"\\u00e9"}']) {
    const parsed = parseBodyStrict(Buffer.from(text), 'yaml');
    assert.deepEqual(parsed.value, yaml11(text), text);
    assert.equal(parsed.fromYaml, true);
  }
  assert.deepEqual(parseBodyStrict(Buffer.from('{"a":1,"a":2}'), 'yaml').yamlDuplicates, ['line 1: key "a" already set in map']);
});

test('strict JSON: the quick parse agrees with the walk on values, repeats and errors', async () => {
  const { parseStrictJson } = await import('./strict-json.js');
  const cases: Array<[string, unknown, string[]]> = [
    ['{"a":{"b":1,"c":[{"d":"x\\"y:z"}]},"e":"f"}', { a: { b: 1, c: [{ d: 'x"y:z' }] }, e: 'f' }, []],
    ['{"a":1,"b":{"c":2,"c":3},"a":4}', { a: 4, b: { c: 3 } }, ['b.c', 'a']],
    ['{"k\\"ey" : 1, "s":"a\\\\", "t" :2}', { 'k"ey': 1, s: 'a\\', t: 2 }, []],
    ['[{"a":1},{"a":2}]', [{ a: 1 }, { a: 2 }], []],
    ['"str"', 'str', []],
  ];
  for (const [text, value, dups] of cases) {
    const got = parseStrictJson(text);
    assert.deepEqual(got.value, value, text);
    assert.deepEqual(got.duplicates, dups, text);
  }
  assert.throws(() => parseStrictJson('{"a":1,}'), /Unexpected token } in JSON at position 7/);
});
