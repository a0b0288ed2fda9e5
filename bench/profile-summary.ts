/**
 * Summarises a V8 .cpuprofile (node --cpu-prof) as its top functions by self time, the evidence
 * bench/README.md gives for a missed target. As a program: `node dist/bench/profile-summary.js
 * FILE.cpuprofile [N] [NAME]` prints the top N (default 20), or with NAME the caller chains of the
 * functions whose name contains NAME.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** One node of a profile's call tree. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** A V8 .cpuprofile as written by the inspector. */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** One function's share of the samples. */
export interface SelfTime {
  readonly fn: string;
  readonly selfMs: number;
  readonly percent: number;
}

function frameName(node: ProfileNode): string {
  const cf = node.callFrame;
  const file = cf.url.replace(/^file:\/\//, '').replace(/^.*\/(node_modules|dist)\//, '$1/');
  return `${cf.functionName || '(anonymous)'}${file ? ` ${file}:${cf.lineNumber + 1}` : ''}`;
}

/** Milliseconds of samples per node id. */
export function sampleTimes(profile: CpuProfile): Map<number, number> {
  const ms = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // Each sample's time is the delta to the next sample (the last one's is unknown, taken as 0).
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i] as number;
    ms.set(id, (ms.get(id) ?? 0) + ((deltas[i + 1] ?? 0) as number) / 1000);
  }
  return ms;
}

/** Self time per function (name and short location), heaviest first. */
export function selfTimes(profile: CpuProfile): SelfTime[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const ms = sampleTimes(profile);
  const total = [...ms.values()].reduce((a, b) => a + b, 0);
  const byFn = new Map<string, number>();
  for (const [id, t] of ms) {
    const node = byId.get(id);
    if (!node) continue;
    const name = frameName(node);
    byFn.set(name, (byFn.get(name) ?? 0) + t);
  }
  return [...byFn.entries()]
    .map(([fn, selfMs]) => ({ fn, selfMs, percent: total > 0 ? (selfMs / total) * 100 : 0 }))
    .sort((a, b) => b.selfMs - a.selfMs);
}

/**
 * Where the self time of functions whose name contains fnSubstring comes from: the time grouped
 * by the chain of up to depth callers above them, heaviest first.
 */
export function callers(profile: CpuProfile, fnSubstring: string, depth = 4): SelfTime[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const ms = sampleTimes(profile);
  const total = [...ms.values()].reduce((a, b) => a + b, 0);
  const byChain = new Map<string, number>();
  for (const [id, t] of ms) {
    const node = byId.get(id);
    if (!node || !frameName(node).includes(fnSubstring)) continue;
    const chain: string[] = [frameName(node)];
    for (let p = parent.get(id); p !== undefined && chain.length <= depth; p = parent.get(p)) chain.push(frameName(byId.get(p) as ProfileNode));
    const key = chain.join(' <- ');
    byChain.set(key, (byChain.get(key) ?? 0) + t);
  }
  return [...byChain.entries()]
    .map(([fn, selfMs]) => ({ fn, selfMs, percent: total > 0 ? (selfMs / total) * 100 : 0 }))
    .sort((a, b) => b.selfMs - a.selfMs);
}

/** Reads a profile file and returns its top n self-time functions. */
export function summariseProfile(path: string, n = 20): SelfTime[] {
  return selfTimes(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile).slice(0, n);
}

/** The summary as text, one function a line. */
export function formatSummary(rows: readonly SelfTime[]): string {
  return rows.map((r) => `${r.percent.toFixed(1).padStart(5)}%  ${r.selfMs.toFixed(0).padStart(7)} ms  ${r.fn}`).join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, n, fn] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: profile-summary FILE.cpuprofile [N] [FUNCTION-NAME-PART: show its callers]\n');
    process.exit(2);
  }
  const count = n ? Number(n) : 20;
  if (fn) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    process.stdout.write(`${formatSummary(callers(profile, fn).slice(0, count))}\n`);
  } else {
    process.stdout.write(`${formatSummary(summariseProfile(file, count))}\n`);
  }
}
