/**
 * The soak report: bench/results/soak-<date>.json (the raw samples and the run's facts),
 * soak-<date>.html (self-contained: inline SVG charts of request and error rates, latency
 * percentiles and memory over time with the disruptions shaded, and the summary tables) and
 * soak-<date>.png (the same charts, rendered by resvg). `node dist/hack/soak/report.js FILE.json`
 * renders the HTML and PNG of a saved run again.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import { disruptionLegend, lineChart, stackCharts, type Series } from './report-charts.js';
import type { Defect } from './recorder.js';
import type { ErrorRecord, Sample } from './sampler.js';
import type { PlannedDisruption } from './schedule.js';
import { summaryTables } from './report-tables.js';
import type { Disruption, LatencySummary } from './stats.js';
import type { MemoryBounds } from './verdict.js';

/** Everything a finished run knows; saved as the JSON. */
export interface SoakRun {
  readonly startedAt: string;
  readonly durationMs: number;
  /** How long the load ran (the duration plus the stop). */
  readonly loadMs: number;
  readonly setupMs: number;
  readonly tickMs: number;
  readonly servers: number;
  readonly plan: readonly PlannedDisruption[];
  readonly disruptions: readonly Disruption[];
  readonly samples: readonly Sample[];
  readonly errors: readonly ErrorRecord[];
  readonly latencyTotals: Record<string, LatencySummary>;
  readonly informers: { readonly count: number; readonly objectsCompared: number };
  readonly ledger: { readonly acknowledged: number; readonly checked: number; readonly unknown: number; readonly lost: number };
  readonly defects: readonly Defect[];
  readonly notes: readonly Defect[];
  readonly bounds: MemoryBounds;
  wallMs: number;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const mib = 1024 * 1024;
const palette = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];

function rate(s: Sample, pred: (key: string) => boolean, from: Record<string, number>): number {
  let n = 0;
  for (const [k, v] of Object.entries(from)) if (pred(k)) n += v;
  return s.seconds > 0 ? n / s.seconds : Number.NaN;
}

/** The charts of a run, as SVG strings. */
export function charts(run: SoakRun): string[] {
  const seconds = run.loadMs / 1000;
  const common = { disruptions: run.disruptions, seconds };
  const at = (s: Sample): number => s.t / 1000;
  const code = (k: string): number => Number(k.split(' ')[1]);
  const out: string[] = [disruptionLegend()];
  out.push(
    lineChart({
      ...common,
      title: 'Requests and watch events per second',
      unit: 'per second',
      series: [
        { name: 'requests', color: palette[0] as string, points: run.samples.map((s) => [at(s), rate(s, () => true, s.requests)]) },
        { name: 'watch events', color: palette[2] as string, points: run.samples.map((s) => [at(s), s.seconds > 0 ? s.watchEvents / s.seconds : Number.NaN]) },
      ],
    }),
  );
  out.push(
    lineChart({
      ...common,
      title: 'Errors per second (every answer that is not 2xx)',
      unit: 'errors per second',
      series: [
        { name: '5xx', color: '#d62728', points: run.samples.map((s) => [at(s), rate(s, (k) => code(k) >= 500, s.errors)]) },
        { name: 'no answer', color: '#ff7f0e', points: run.samples.map((s) => [at(s), rate(s, (k) => code(k) === 0, s.errors)]) },
        { name: '429', color: '#9467bd', points: run.samples.map((s) => [at(s), rate(s, (k) => code(k) === 429, s.errors)]) },
        { name: 'other 4xx', color: '#7f7f7f', points: run.samples.map((s) => [at(s), rate(s, (k) => code(k) >= 400 && code(k) < 500 && code(k) !== 429, s.errors)]) },
      ],
    }),
  );
  out.push(
    lineChart({
      ...common,
      title: 'Latency of every request (percentiles per tick)',
      unit: 'milliseconds',
      series: (['p50', 'p90', 'p99'] as const).map((p, i) => ({ name: p, color: palette[i] as string, points: run.samples.map((s) => [at(s), s.latency.all?.[p] ?? Number.NaN] as const) })),
    }),
  );
  const kinds = Object.keys(run.latencyTotals).filter((k) => k !== 'all' && k !== 'kubectl').sort();
  out.push(
    lineChart({
      ...common,
      title: 'p99 latency by request kind',
      unit: 'milliseconds',
      series: kinds.map((k, i) => ({ name: k, color: palette[i % palette.length] as string, points: run.samples.map((s) => [at(s), s.latency[k]?.p99 ?? Number.NaN] as const) })),
    }),
  );
  const mem: Series[] = [];
  const names = run.samples[0]?.servers.map((p) => p.name) ?? [];
  names.forEach((n, i) => {
    mem.push({ name: `${n} RSS`, color: palette[i] as string, points: run.samples.map((s) => [at(s), (s.servers.find((p) => p.name === n)?.rss ?? Number.NaN) / mib]) });
    mem.push({ name: `${n} heap`, color: palette[i] as string, dashed: true, points: run.samples.map((s) => [at(s), (s.servers.find((p) => p.name === n)?.heapUsed ?? Number.NaN) / mib]) });
  });
  (run.samples[0]?.etcd.map((p) => p.name) ?? []).forEach((n, i) => {
    mem.push({ name: `${n} RSS`, color: palette[4 + i] as string, points: run.samples.map((s) => [at(s), (s.etcd.find((p) => p.name === n)?.rss ?? Number.NaN) / mib]) });
  });
  out.push(lineChart({ ...common, title: 'Memory: API servers (RSS, V8 heap dashed) and etcd members (RSS)', unit: 'MiB', series: mem, height: 300 }));
  return out;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The HTML page of a run. */
export function html(run: SoakRun, chartSvgs: readonly string[]): string {
  const verdict = run.defects.length === 0 ? '<p class="pass">PASS: no defect-class event.</p>' : `<p class="fail">FAIL: ${run.defects.length} defect-class events.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Capstan soak ${escapeHtml(run.startedAt)}</title>
<style>
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1000px}
h1{font-size:22px}h2{font-size:17px;margin-top:28px}
table{border-collapse:collapse;font-size:13px;margin:8px 0}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
.pass{color:#1a7f37;font-weight:bold}.fail{color:#c62828;font-weight:bold}
figure{margin:0 0 8px 0}
</style></head><body>
<h1>Capstan soak, ${escapeHtml(run.startedAt)}</h1>
${verdict}
<p>${(run.durationMs / 60_000).toFixed(0)} minutes of mixed load on ${run.servers} API servers over a three-member etcd cluster; shaded bands are disruptions (from the moment each began until the disrupted part served again).</p>
${chartSvgs.map((c) => `<figure>${c}</figure>`).join('\n')}
${summaryTables(run)}
</body></html>
`;
}

/** Writes the run's JSON, HTML and PNG under bench/results (or dir); returns their paths. */
export async function writeReport(run: SoakRun, dir = join(root, 'bench', 'results'), stem = `soak-${run.startedAt.slice(0, 16).replace(/:/g, '')}`): Promise<{ json: string; html: string; png: string }> {
  await mkdir(dir, { recursive: true });
  const files = { json: join(dir, `${stem}.json`), html: join(dir, `${stem}.html`), png: join(dir, `${stem}.png`) };
  const svgs = charts(run);
  await writeFile(files.json, `${JSON.stringify(run)}\n`);
  await writeFile(files.html, html(run, svgs));
  const png = new Resvg(stackCharts(svgs), { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' }, background: '#ffffff' }).render().asPng();
  await writeFile(files.png, png);
  return files;
}

async function rerender(path: string): Promise<void> {
  const run = JSON.parse(await readFile(path, 'utf8')) as SoakRun;
  const files = await writeReport(run, dirname(path), path.replace(/^.*\//, '').replace(/\.json$/, ''));
  process.stdout.write(`${files.html}\n${files.png}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  rerender(process.argv[2] ?? '').catch((err: unknown) => {
    process.stderr.write(`soak report: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
