/**
 * The soak report's summary tables as HTML: the run's totals, errors by kind and code split
 * between disruption windows and quiet time, latency per request kind, memory of every process
 * (start, peak, end and trend), the disruptions as they happened, and the defects and notes.
 */
import type { SoakRun } from './report.js';
import type { Sample } from './sampler.js';
import { disruptionGraceMs, slope, splitByWindows } from './stats.js';

const mib = 1024 * 1024;
const minTrendSpanMs = 10 * 60_000;

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function table(head: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cell = (v: string | number): string => esc(typeof v === 'number' ? v.toLocaleString('en-US') : v);
  return `<table><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${rows.map((r) => `<tr>${r.map((v) => `<td>${cell(v)}</td>`).join('')}</tr>`).join('')}</table>`;
}

function ms(v: number | undefined): string {
  return v === undefined || !Number.isFinite(v) ? 'n/a' : `${v.toFixed(v < 10 ? 1 : 0)} ms`;
}

function mb(v: number): string {
  return Number.isFinite(v) ? `${(v / mib).toFixed(0)} MiB` : 'n/a';
}

/** Start, peak and end of one process's memory, and its trend over its last lifetime (same pid) in MiB per hour. */
export function memoryRow(samples: readonly Sample[], pick: (s: Sample) => { pid: number; v: number } | undefined): { start: number; peak: number; end: number; trend: number } {
  const vals = samples.map((s) => pick(s)).filter((p): p is { pid: number; v: number } => p !== undefined && Number.isFinite(p.v));
  const lastPid = vals.at(-1)?.pid;
  const life = samples.map((s) => [s.t, pick(s)] as const).filter(([, p]) => p && p.pid === lastPid && Number.isFinite(p.v));
  // A slope over less than ten minutes is mostly warm-up, not a trend.
  const span = (life.at(-1)?.[0] ?? 0) - (life[0]?.[0] ?? 0);
  const trend = span >= minTrendSpanMs ? slope(life.map(([t]) => t / 3_600_000), life.map(([, p]) => (p?.v ?? 0) / mib)) : Number.NaN;
  return { start: vals[0]?.v ?? Number.NaN, peak: Math.max(...vals.map((p) => p.v)), end: vals.at(-1)?.v ?? Number.NaN, trend };
}

/** The summary section of the report. */
export function summaryTables(run: SoakRun): string {
  const out: string[] = [];
  let requests = 0;
  let watchEvents = 0;
  let relists = 0;
  for (const s of run.samples) {
    for (const v of Object.values(s.requests)) requests += v;
    watchEvents += s.watchEvents;
    relists += s.relists;
  }
  const errs = splitByWindows(run.errors.map((e) => ({ at: e.at, count: 1 })), run.disruptions);
  out.push('<h2>Totals</h2>');
  out.push(
    table(
      ['what', 'count'],
      [
        ['requests', requests],
        ['non-2xx answers (during disruptions / outside)', `${errs.total.toLocaleString('en-US')} (${errs.during.toLocaleString('en-US')} / ${errs.outside.toLocaleString('en-US')})`],
        ['watch events received', watchEvents],
        ['informer relists (after a 410)', relists],
        ['acknowledged writes', run.ledger.acknowledged],
        ['ledger entries read back at the end (left unknown)', `${run.ledger.checked.toLocaleString('en-US')} (${run.ledger.unknown})`],
        ['lost writes', run.ledger.lost],
        [`objects compared across ${run.informers.count} informers`, run.informers.objectsCompared],
        ['defect-class events', run.defects.length],
        ['setup / load / wall time', `${(run.setupMs / 1000).toFixed(0)} s / ${(run.loadMs / 60_000).toFixed(1)} min / ${(run.wallMs / 60_000).toFixed(1)} min`],
      ],
    ),
  );
  const byKey = new Map<string, Array<{ at: number; count: number }>>();
  for (const e of run.errors) {
    const key = `${e.kind}\u0000${e.code}`;
    const list = byKey.get(key) ?? [];
    list.push({ at: e.at, count: 1 });
    byKey.set(key, list);
  }
  out.push(`<h2>Errors by kind and code</h2><p>"During" is inside a disruption window: from its start until ${disruptionGraceMs / 1000} s after the disrupted part served again. Code 0 is a request that got no answer.</p>`);
  const rows = [...byKey].map(([key, list]) => {
    const [kind, code] = key.split('\u0000') as [string, string];
    const s = splitByWindows(list, run.disruptions);
    return [kind, code, s.total, s.during, s.outside, s.total ? `${((100 * s.during) / s.total).toFixed(0)}%` : 'n/a'] as const;
  });
  rows.sort((a, b) => b[2] - a[2]);
  out.push(rows.length ? table(['kind', 'code', 'total', 'during disruptions', 'outside', 'share during'], rows) : '<p>None.</p>');
  out.push('<h2>Latency by request kind</h2>');
  const kinds = Object.keys(run.latencyTotals).sort((a, b) => (a === 'all' ? -1 : b === 'all' ? 1 : a.localeCompare(b)));
  out.push(
    table(
      ['kind', 'requests', 'p50', 'p90', 'p99', 'worst p99 of a tick (at)'],
      kinds.map((k) => {
        const t = run.latencyTotals[k];
        let worst = Number.NaN;
        let worstAt = 0;
        for (const s of run.samples) {
          const p = s.latency[k];
          if (p && p.n >= 5 && !(p.p99 <= worst)) {
            worst = p.p99;
            worstAt = s.t;
          }
        }
        return [k, t?.n ?? 0, ms(t?.p50), ms(t?.p90), ms(t?.p99), Number.isFinite(worst) ? `${ms(worst)} (${(worstAt / 60_000).toFixed(1)} min)` : 'n/a'];
      }),
    ),
  );
  out.push(`<h2>Memory</h2><p>Bounds: API server RSS ${mb(run.bounds.serverRss)}, V8 heap in use ${mb(run.bounds.serverHeap)}; etcd member RSS ${mb(run.bounds.etcdRss)}. The trend is the least-squares slope over the process's last lifetime (a restart starts a new one), given once that lifetime is 10 minutes or longer.</p>`);
  const memRows: (string | number)[][] = [];
  for (const name of run.samples[0]?.servers.map((p) => p.name) ?? []) {
    for (const [label, key] of [['RSS', 'rss'], ['heap', 'heapUsed']] as const) {
      const r = memoryRow(run.samples, (s) => {
        const p = s.servers.find((q) => q.name === name);
        return p && { pid: p.pid, v: p[key] ?? Number.NaN };
      });
      memRows.push([`${name} ${label}`, mb(r.start), mb(r.peak), mb(r.end), Number.isFinite(r.trend) ? `${r.trend >= 0 ? '+' : ''}${r.trend.toFixed(0)} MiB/h` : 'n/a (lifetime < 10 min)']);
    }
  }
  for (const name of run.samples[0]?.etcd.map((p) => p.name) ?? []) {
    const r = memoryRow(run.samples, (s) => {
      const p = s.etcd.find((q) => q.name === name);
      return p && { pid: p.pid, v: p.rss };
    });
    memRows.push([`${name} RSS`, mb(r.start), mb(r.peak), mb(r.end), Number.isFinite(r.trend) ? `${r.trend >= 0 ? '+' : ''}${r.trend.toFixed(0)} MiB/h` : 'n/a (lifetime < 10 min)']);
  }
  out.push(table(['process', 'start', 'peak', 'end', 'trend'], memRows));
  out.push('<h2>Disruptions</h2>');
  out.push(table(['kind', 'target', 'at', 'served again after'], run.disruptions.map((d) => [d.kind, d.target, `${(d.start / 60_000).toFixed(2)} min`, `${((d.end - d.start) / 1000).toFixed(1)} s`])));
  out.push('<h2>Defect-class events</h2>');
  out.push(run.defects.length ? `<ul>${run.defects.map((d) => `<li>${(d.at / 1000).toFixed(1)} s: ${esc(d.what)}</li>`).join('')}</ul>` : '<p>None: no 5xx or unanswered request outside a disruption window, no informer missed or repeated an event, every acknowledged write was found, memory stayed within its bounds.</p>');
  if (run.notes.length) out.push(`<h2>Notes</h2><ul>${run.notes.map((d) => `<li>${(d.at / 1000).toFixed(1)} s: ${esc(d.what)}</li>`).join('')}</ul>`);
  return out.join('\n');
}
