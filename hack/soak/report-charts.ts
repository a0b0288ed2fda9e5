/**
 * The soak report's charts as self-contained SVG: line charts over the run's time with the
 * disruption windows shaded behind the lines, a legend and labelled axes. Pure string building;
 * the same SVG goes inline into the HTML and, stacked, into the PNG.
 */
import type { Disruption, DisruptionKind } from './stats.js';

/** One line of a chart. */
export interface Series {
  readonly name: string;
  readonly color: string;
  /** [seconds since start, value]; NaN values break the line. */
  readonly points: ReadonlyArray<readonly [number, number]>;
  readonly dashed?: boolean;
}

/** A chart to draw. */
export interface ChartSpec {
  readonly title: string;
  readonly unit: string;
  readonly series: readonly Series[];
  readonly disruptions: readonly Disruption[];
  /** The run's length in seconds (the x axis). */
  readonly seconds: number;
  readonly width?: number;
  readonly height?: number;
}

/** The shading of each disruption kind. */
export const disruptionColors: Record<DisruptionKind, string> = {
  'apiserver-restart': '#f4a261',
  'etcd-compaction': '#8ab6d6',
  'etcd-member-restart': '#c39bd3',
};

const font = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\"";

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A round step for about `ticks` divisions of max. */
export function niceStep(max: number, ticks: number): number {
  if (!(max > 0)) return 1;
  const raw = max / ticks;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
}

function fmt(v: number): string {
  if (v >= 1000) return `${+(v / 1000).toFixed(1)}k`;
  return String(+v.toFixed(2));
}

/** The chart as an <svg> element. */
export function lineChart(spec: ChartSpec): string {
  const width = spec.width ?? 960;
  const height = spec.height ?? 260;
  const left = 64;
  const right = 16;
  const top = 50;
  const bottom = 44;
  const pw = width - left - right;
  const ph = height - top - bottom;
  let max = 0;
  for (const s of spec.series) for (const [, v] of s.points) if (Number.isFinite(v) && v > max) max = v;
  const ystep = niceStep(max * 1.05 || 1, 5);
  const ymax = Math.ceil((max * 1.05 || 1) / ystep) * ystep;
  const xs = Math.max(spec.seconds, 1);
  const x = (sec: number): number => left + (Math.min(Math.max(sec, 0), xs) / xs) * pw;
  const y = (v: number): number => top + ph - (v / ymax) * ph;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`);
  parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(`<text x="${left}" y="20" ${font} font-size="15" font-weight="bold" fill="#222">${esc(spec.title)}</text>`);
  for (const d of spec.disruptions) {
    const x0 = x(d.start / 1000);
    const x1 = Math.max(x(d.end / 1000), x0 + 2);
    parts.push(`<rect x="${x0.toFixed(1)}" y="${top}" width="${(x1 - x0).toFixed(1)}" height="${ph}" fill="${disruptionColors[d.kind]}" fill-opacity="0.3"/>`);
    parts.push(`<line x1="${x0.toFixed(1)}" y1="${top}" x2="${x0.toFixed(1)}" y2="${top + ph}" stroke="${disruptionColors[d.kind]}" stroke-width="1.5"/>`);
  }
  for (let v = 0; v <= ymax + 1e-9; v += ystep) {
    parts.push(`<line x1="${left}" y1="${y(v).toFixed(1)}" x2="${left + pw}" y2="${y(v).toFixed(1)}" stroke="#e3e3e3"/>`);
    parts.push(`<text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" ${font} font-size="11" fill="#555" text-anchor="end">${fmt(v)}</text>`);
  }
  const xstepMin = niceStep(xs / 60, 8);
  for (let m = 0; m <= xs / 60 + 1e-9; m += xstepMin) {
    const px = x(m * 60);
    parts.push(`<line x1="${px.toFixed(1)}" y1="${top + ph}" x2="${px.toFixed(1)}" y2="${top + ph + 4}" stroke="#888"/>`);
    parts.push(`<text x="${px.toFixed(1)}" y="${top + ph + 17}" ${font} font-size="11" fill="#555" text-anchor="middle">${fmt(m)}</text>`);
  }
  parts.push(`<text x="${left + pw / 2}" y="${height - 6}" ${font} font-size="11" fill="#555" text-anchor="middle">minutes since the load started</text>`);
  parts.push(`<text x="14" y="${top + ph / 2}" ${font} font-size="11" fill="#555" text-anchor="middle" transform="rotate(-90 14 ${top + ph / 2})">${esc(spec.unit)}</text>`);
  parts.push(`<rect x="${left}" y="${top}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`);
  for (const s of spec.series) {
    let d = '';
    let pen = false;
    for (const [sec, v] of s.points) {
      if (!Number.isFinite(v)) {
        pen = false;
        continue;
      }
      d += `${pen ? 'L' : 'M'}${x(sec).toFixed(1)},${y(v).toFixed(1)}`;
      pen = true;
    }
    if (d) parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.6"${s.dashed ? ' stroke-dasharray="5,3"' : ''}/>`);
  }
  let lx = left;
  const legend: string[] = [];
  for (const s of spec.series) {
    legend.push(`<line x1="${lx.toFixed(1)}" y1="35" x2="${(lx + 16).toFixed(1)}" y2="35" stroke="${s.color}" stroke-width="3"${s.dashed ? ' stroke-dasharray="5,3"' : ''}/><text x="${(lx + 20).toFixed(1)}" y="39" ${font} font-size="11" fill="#333">${esc(s.name)}</text>`);
    lx += 34 + s.name.length * 6.4;
  }
  parts.push(...legend);
  parts.push('</svg>');
  return parts.join('');
}

/** A legend strip naming the disruption shadings. */
export function disruptionLegend(width = 960): string {
  const items = Object.entries(disruptionColors);
  let x = 64;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="26" viewBox="0 0 ${width} 26"><rect width="${width}" height="26" fill="#ffffff"/>`];
  for (const [kind, color] of items) {
    parts.push(`<rect x="${x}" y="7" width="14" height="12" fill="${color}" fill-opacity="0.6"/><text x="${x + 19}" y="17" ${font} font-size="11" fill="#333">${kind.replace(/-/g, ' ')}</text>`);
    x += 40 + kind.length * 6.6;
  }
  parts.push('</svg>');
  return parts.join('');
}

/** Stacks SVG charts (each with its own width and height attributes) into one SVG, top to bottom. */
export function stackCharts(charts: readonly string[]): string {
  let y = 0;
  let width = 0;
  const parts: string[] = [];
  for (const c of charts) {
    const w = Number(/width="(\d+)"/.exec(c)?.[1] ?? 0);
    const h = Number(/height="(\d+)"/.exec(c)?.[1] ?? 0);
    parts.push(c.replace('<svg ', `<svg x="0" y="${y}" `));
    y += h;
    width = Math.max(width, w);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}"><rect width="${width}" height="${y}" fill="#ffffff"/>${parts.join('')}</svg>`;
}
