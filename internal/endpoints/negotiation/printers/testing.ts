/**
 * Fixtures for the printer tests: a fixed now, timestamps relative to it, and a compact view of
 * column definitions. Test-only; nothing in the server imports it.
 */
import type { TablePrinter } from './types.js';

/** The moment every printer test measures ages against. */
export const now = new Date('2025-06-01T12:00:00Z');

/** The RFC 3339 timestamp (second precision, as metav1.Time) seconds before now. */
export function ago(seconds: number): string {
  return new Date(now.getTime() - seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Seconds in a minute, for readable ago() arguments. */
export const minute = 60;
/** Seconds in an hour. */
export const hour = 60 * minute;
/** Seconds in a day. */
export const day = 24 * hour;

/** Each column as [name, type, format, priority]: what kube's column definitions fix. */
export function columnSpec(printer: TablePrinter): Array<[string, string, string, number]> {
  return printer.columns.map((c) => [c.name, c.type, c.format, c.priority]);
}
