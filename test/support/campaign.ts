/**
 * Test support for issue 18's campaign (test/campaign): how many cases a run tries, and one line of
 * counts per test that `make test` prints, e.g. `campaign fuzz-bodies: 4,000 requests tried, 0 failures`.
 */
import type { TestContext } from 'node:test';

/**
 * The number of cases for a campaign test: `base` in `make test`, times CAMPAIGN_SCALE (a positive
 * number, default 1) for longer runs such as `make soak`'s.
 */
export function campaignCases(base: number): number {
  const raw = process.env.CAMPAIGN_SCALE;
  const scale = raw === undefined || raw === '' ? 1 : Number(raw);
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`CAMPAIGN_SCALE must be a positive number, got ${JSON.stringify(raw)}`);
  return Math.max(1, Math.round(base * scale));
}

/** Prints one line of counts for a campaign test, as the test's diagnostic (every reporter shows it). */
export function reportCampaign(t: TestContext, name: string, counts: Readonly<Record<string, number>>): string {
  const parts = Object.entries(counts).map(([what, n]) => `${n.toLocaleString('en-US')} ${what}`);
  const line = `campaign ${name}: ${parts.join(', ')}`;
  t.diagnostic(line);
  return line;
}
