/**
 * The source position of a logging call, for klog's `file:line` and the JSON format's "caller".
 * It is captured only for a line that is written (or a V check that --vmodule must decide), from
 * one V8 stack frame; the compiled .js position is mapped to the TypeScript source through the
 * .js.map that tsc writes beside it (read once per file), and every position is cached, so a call
 * site costs one stack capture after its first line.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Where a log call was made. */
export interface Caller {
  /** "httplog.ts:42": klog's header. */
  readonly file: string;
  /** "filters/httplog.ts:42": the JSON format's caller (zap's short caller: directory and file). */
  readonly short: string;
  /** "httplog": what --vmodule patterns match. */
  readonly module: string;
}

const unknown: Caller = { file: '???:1', short: '???:1', module: '' };
const byPosition = new Map<string, Caller>();
const maps = new Map<string, SourceMap | null>();
const maxCached = 10_000;

function sourceMapOf(fileUrl: string): SourceMap | undefined {
  let map = maps.get(fileUrl);
  if (map === undefined) {
    map = null;
    try {
      const path = fileUrl.startsWith('file:') ? fileURLToPath(fileUrl) : fileUrl;
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    } catch {
      // No map beside the file (not compiled by tsc): the .js position is the source's.
    }
    maps.set(fileUrl, map);
  }
  return map ?? undefined;
}

function lastSegments(path: string, count: number): string {
  const parts = path.split(/[\\/]/);
  return parts.slice(-count).join('/');
}

function resolve(fileName: string, line: number, column: number): Caller {
  let source = fileName;
  let sourceLine = line;
  const entry = sourceMapOf(fileName)?.findEntry(line - 1, column - 1) as { originalSource?: string; originalLine?: number } | undefined;
  if (entry?.originalSource !== undefined && entry.originalLine !== undefined) {
    source = entry.originalSource;
    sourceLine = entry.originalLine + 1;
  }
  const base = lastSegments(source, 1);
  const dot = base.lastIndexOf('.');
  return { file: `${base}:${sourceLine}`, short: `${lastSegments(source, 2)}:${sourceLine}`, module: dot > 0 ? base.slice(0, dot) : base };
}

function collectSites(_: Error, sites: NodeJS.CallSite[]): NodeJS.CallSite[] {
  return sites;
}

/**
 * The caller of the function that calls callerOf (the logger method): two frames up. A fixed depth
 * rather than Error.captureStackTrace's function filter, which walks further and costs twice as
 * much. Never throws.
 */
export function callerOf(): Caller {
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  let site: NodeJS.CallSite | undefined;
  try {
    Error.prepareStackTrace = collectSites;
    Error.stackTraceLimit = 3;
    site = (new Error().stack as unknown as NodeJS.CallSite[] | undefined)?.[2];
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
  const fileName = site?.getFileName();
  if (!site || !fileName) return unknown;
  const line = site.getLineNumber() ?? 1;
  const column = site.getColumnNumber() ?? 1;
  const key = `${fileName}:${line}:${column}`;
  let caller = byPosition.get(key);
  if (!caller) {
    caller = resolve(fileName, line, column);
    if (byPosition.size >= maxCached) byPosition.clear();
    byPosition.set(key, caller);
  }
  return caller;
}
