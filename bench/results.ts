/**
 * Benchmark results: each one a line (`creates: 1234/s vs etcd 2400/s = 0.51x (target >= 0.5x)
 * ok`), a final table, and a machine-readable record written to bench/results/<date>.json.
 * A missed target is printed as MISSED with its figures; nothing is dropped from the table.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { formatRatio } from './stats.js';

/**
 * ok and MISSED judge a target; info has none; FAILED: the server failed the benchmark's requests
 * where there is no target to miss; skipped did not run; error: the benchmark itself broke.
 */
export type Status = 'ok' | 'MISSED' | 'info' | 'FAILED' | 'skipped' | 'error';

/** A target: the value (or the ratio) must be op threshold. */
export interface Target {
  readonly on: 'value' | 'ratio';
  readonly op: '>=' | '<=' | '<' | '==';
  readonly threshold: number;
  /** How the target reads in a line, e.g. `>= 0.5x`. */
  readonly text: string;
}

/** One line of results. */
export interface BenchResult {
  /** Short name, e.g. `creates` or `list rv=0 time`. */
  readonly name: string;
  /** The measured figure in words, e.g. `1234/s`. */
  readonly measured: string;
  /** The baseline in words, e.g. `etcd 2400/s`, when there is one. */
  readonly baseline?: string;
  readonly value: number;
  readonly baselineValue?: number;
  readonly ratio?: number;
  readonly target?: Target;
  /** A target shown but not judged, and why (e.g. the thing it is about does not exist yet). */
  readonly unjudged?: string;
  readonly status: Status;
  /** Every figure behind the line, for the JSON record. */
  readonly figures: Record<string, unknown>;
  readonly notes: readonly string[];
}

/** Whether a value meets a target. */
export function meets(target: Target, value: number, r: number | undefined): boolean {
  const v = target.on === 'ratio' ? (r ?? Number.NaN) : value;
  if (!Number.isFinite(v)) return false;
  switch (target.op) {
    case '>=':
      return v >= target.threshold;
    case '<=':
      return v <= target.threshold;
    case '<':
      return v < target.threshold;
    case '==':
      return v === target.threshold;
  }
}

/** Builds a result, judging the target when there is one. */
export function result(r: Omit<BenchResult, 'status' | 'notes'> & { notes?: readonly string[]; status?: Status }): BenchResult {
  const status = r.status ?? (r.target ? (meets(r.target, r.value, r.ratio) ? 'ok' : 'MISSED') : 'info');
  return { ...r, notes: r.notes ?? [], status };
}

/** A result for a benchmark that could not run or failed, carrying why. */
export function failedResult(name: string, status: 'skipped' | 'error' | 'FAILED', why: string, target?: Target): BenchResult {
  const first = why.split('\n')[0] ?? why;
  const measured = first.length > 90 ? `${first.slice(0, 87)}...` : first;
  return { name, measured, value: Number.NaN, status, figures: {}, notes: [why], ...(target ? { target } : {}) };
}

/** The one-line form: `name: measured vs baseline = ratio (target ...) status`. */
export function formatLine(r: BenchResult): string {
  let line = `${r.name}: ${r.measured}`;
  if (r.baseline !== undefined) line += ` vs ${r.baseline}`;
  if (r.ratio !== undefined) line += ` = ${formatRatio(r.ratio)}`;
  if (r.target) line += ` (target ${r.target.text})`;
  else if (r.unjudged) line += ` (${r.unjudged})`;
  else if (r.status === 'info') line += ' (no target)';
  line += ` ${r.status}`;
  return line;
}

/** The closing table, one row per result, columns padded. */
export function formatTable(results: readonly BenchResult[]): string {
  const rows = results.map((r) => [r.name, r.measured, r.baseline ?? '', r.ratio !== undefined ? formatRatio(r.ratio) : '', r.target?.text ?? (r.unjudged ? `(${r.unjudged})` : ''), r.status]);
  const head = ['benchmark', 'measured', 'baseline', 'ratio', 'target', 'status'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const fmt = (cells: readonly string[]): string => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ').trimEnd();
  return [fmt(head), fmt(widths.map((w) => '-'.repeat(w))), ...rows.map(fmt)].join('\n');
}

function gitCommit(): string | undefined {
  try {
    const sha = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return dirty ? `${sha}-dirty` : sha;
  } catch {
    return undefined;
  }
}

/** Writes results and the machine's facts to dir/<YYYY-MM-DD>[-label].json; returns the path. */
export function writeResults(dir: string, label: string | undefined, results: readonly BenchResult[], run: Record<string, unknown>): string {
  mkdirSync(dir, { recursive: true });
  const now = new Date();
  const path = join(dir, `${now.toISOString().slice(0, 10)}${label ? `-${label}` : ''}.json`);
  const cpuList = cpus();
  const record = {
    date: now.toISOString(),
    node: process.version,
    cpus: cpuList.length,
    cpuModel: cpuList[0]?.model,
    memoryBytes: totalmem(),
    gitCommit: gitCommit(),
    ...run,
    results: results.map((r) => ({
      name: r.name,
      status: r.status,
      value: Number.isFinite(r.value) ? r.value : null,
      measured: r.measured,
      baseline: r.baseline ?? null,
      baselineValue: r.baselineValue !== undefined && Number.isFinite(r.baselineValue) ? r.baselineValue : null,
      ratio: r.ratio !== undefined && Number.isFinite(r.ratio) ? r.ratio : null,
      target: r.target ?? null,
      unjudged: r.unjudged ?? null,
      figures: r.figures,
      notes: r.notes,
    })),
  };
  writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
  return path;
}
