import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Check, CheckResult } from '../check.js';
import { defaultChecks } from './index.js';

interface Vector {
  check: string;
  versions: number[];
  pod: { metadata?: Record<string, unknown>; spec: Record<string, unknown> };
  reason?: string;
  detail?: string;
}

// The vectors live in the source tree (the build does not copy JSON).
const here = dirname(fileURLToPath(import.meta.url));
const vectorsFile = join(here, '..', '..', '..', '..', '..', '..', '..', 'internal', 'admission', 'plugins', 'pod-security', 'policy', 'testdata', 'check-vectors.json');
const vectors = JSON.parse(readFileSync(vectorsFile, 'utf8')) as Vector[];

/** The result of check c as policy version v1.<minor> defines it, or undefined before it exists. */
function checkAt(c: Check, minor: number, pod: Vector['pod']): CheckResult | undefined {
  const v = c.versions.filter((x) => x.minimumMinor <= minor).at(-1);
  return v?.checkPod((pod.metadata ?? {}) as never, pod.spec as never);
}

describe('Pod Security checks (vectors after kube 1.33 policy tests)', () => {
  const byId = new Map(defaultChecks.map((c) => [c.id, c]));
  it('every check has vectors, passing and failing', () => {
    for (const c of defaultChecks) {
      const vs = vectors.filter((v) => v.check === c.id);
      assert.ok(vs.some((v) => !v.reason), `${c.id} has a passing vector`);
      assert.ok(vs.some((v) => v.reason), `${c.id} has a failing vector`);
    }
    assert.equal(defaultChecks.length, 17);
  });
  vectors.forEach((v, i) => {
    it(`${v.check} #${i}: ${v.reason ? 'refuses' : 'allows'} at v1.${v.versions.join(', v1.')}`, () => {
      const c = byId.get(v.check);
      assert.ok(c, `check ${v.check} exists`);
      for (const minor of v.versions) {
        const r = checkAt(c, minor, v.pod);
        assert.ok(r, `${v.check} defined at v1.${minor}`);
        if (!v.reason) {
          assert.equal(r.allowed, true, `allowed at v1.${minor}: ${r.detail}`);
        } else {
          assert.equal(r.allowed, false, `refused at v1.${minor}`);
          assert.equal(r.reason, v.reason);
          assert.equal(r.detail, v.detail);
        }
      }
    });
  });
});
