/**
 * Reading a JSON watch stream: chunks in, one callback per complete newline-delimited event out,
 * without parsing each event whole (the fan-out benchmark reads only a few fields per line, so
 * that the load process keeps up with the server it measures).
 */

/** Splits a byte stream into lines; call push for every chunk. onLine gets each line without its newline. */
export class LineSplitter {
  private rest: Buffer | undefined;

  constructor(private readonly onLine: (line: Buffer) => void) {}

  /** Feeds one chunk. */
  push(chunk: Buffer): void {
    let buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(10, start);
      if (nl < 0) break;
      if (nl > start) this.onLine(buf.subarray(start, nl));
      start = nl + 1;
    }
    buf = buf.subarray(start);
    this.rest = buf.length > 0 ? Buffer.from(buf) : undefined;
  }
}

const needles = new Map<string, Buffer>();

/** The string value of the first `"field":"…"` in line, or undefined (no unescaping: for plain values). */
export function stringField(line: Buffer, field: string): string | undefined {
  let needle = needles.get(field);
  if (!needle) {
    needle = Buffer.from(`"${field}":"`);
    needles.set(field, needle);
  }
  const at = line.indexOf(needle);
  if (at < 0) return undefined;
  const from = at + needle.length;
  const end = line.indexOf(34, from);
  return end < 0 ? undefined : line.toString('latin1', from, end);
}

/** The event type of a watch line (`ADDED`, `BOOKMARK`, ...). */
export function eventType(line: Buffer): string | undefined {
  return stringField(line, 'type');
}
