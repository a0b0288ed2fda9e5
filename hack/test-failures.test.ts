import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { failuresOf } from './test-failures.js';

test('failuresOf lists the spec reporter failing tests, one per entry, with their first message line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-tf-'));
  const file = join(dir, 'a.test.mjs');
  writeFileSync(
    file,
    "import test from 'node:test'; import assert from 'node:assert';\n" +
      "test('good', () => {});\n" +
      "test('outer', async (t) => { await t.test('bad inner', () => { assert.equal(1, 2); }); });\n" +
      "test('throws', () => { throw new Error('boom here'); });\n",
  );
  const report = join(dir, 'report.txt');
  // NODE_TEST_CONTEXT, set for a test file's process, would make the inner runner report to ours.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const run = spawnSync(
    process.execPath,
    ['--test', '--test-reporter=spec', `--test-reporter-destination=${report}`, file],
    { stdio: 'ignore', env },
  );
  assert.equal(run.status, 1);
  const failures = failuresOf(readFileSync(report, 'utf8'));
  const names = failures.map((f) => f.name);
  assert.ok(names.includes('bad inner'), JSON.stringify(failures));
  assert.ok(names.includes('throws'), JSON.stringify(failures));
  assert.ok(!names.includes('good'));
  const boom = failures.find((f) => f.name === 'throws')!;
  assert.match(boom.message, /boom here/);
  assert.match(boom.location, /a\.test\.mjs:4/);
});

test('failuresOf finds nothing in a passing report', () => {
  assert.deepEqual(failuresOf('\u2139 tests 3\n\u2139 pass 3\n'), []);
});
