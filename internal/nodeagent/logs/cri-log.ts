/**
 * The CRI container log format (what containerd writes to a container's log_path, kubelet's
 * kuberuntime logs package reads): one record a line, "<RFC3339Nano time> <stdout|stderr> <F|P>
 * <text>", where P marks a partial record whose text continues in the next record of the same
 * stream and F the record that ends a line. Records are joined into whole lines here.
 */

/** One record of the file. */
export interface CriLogRecord {
  /** The time as the file writes it (RFC3339Nano). */
  readonly time: string;
  /** Milliseconds since the epoch (for since filtering). */
  readonly timeMs: number;
  readonly stream: 'stdout' | 'stderr';
  /** False for a P (partial) record. */
  readonly full: boolean;
  readonly text: Buffer;
}

/** One whole line: the joined records of one stream, with the first record's time. */
export interface CriLogLine {
  readonly time: string;
  readonly timeMs: number;
  readonly stream: 'stdout' | 'stderr';
  /** The text with its trailing newline (none when the file ends inside a partial line). */
  readonly text: Buffer;
}

/** Parses one file line (without its '\n'); undefined for a malformed one (kubelet skips those too). */
export function parseCriRecord(line: Buffer): CriLogRecord | undefined {
  const s1 = line.indexOf(0x20);
  if (s1 <= 0) return undefined;
  const s2 = line.indexOf(0x20, s1 + 1);
  if (s2 < 0) return undefined;
  const time = line.subarray(0, s1).toString('latin1');
  const stream = line.subarray(s1 + 1, s2).toString('latin1');
  if (stream !== 'stdout' && stream !== 'stderr') return undefined;
  const timeMs = Date.parse(time);
  if (Number.isNaN(timeMs)) return undefined;
  // The tag field (F or P, possibly with more tags after ':'); an old format without it is a full line.
  const s3 = line.indexOf(0x20, s2 + 1);
  const tag = s3 < 0 ? line.subarray(s2 + 1).toString('latin1') : line.subarray(s2 + 1, s3).toString('latin1');
  const tags = tag.split(':');
  if (tags[0] === 'P' || tags[0] === 'F') {
    return { time, timeMs, stream, full: tags[0] === 'F', text: s3 < 0 ? Buffer.alloc(0) : line.subarray(s3 + 1) };
  }
  return { time, timeMs, stream, full: true, text: line.subarray(s2 + 1) };
}

/**
 * kubelet's RFC3339NanoFixed rendering of a record's time: nine fraction digits, the zone as the
 * file gives it ("2024-05-01T10:00:00.120000000Z").
 */
export function fixedNanoTime(time: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(.*)$/.exec(time);
  if (!m) return time;
  return `${m[1]}.${(m[2] ?? '').padEnd(9, '0').slice(0, 9)}${m[3]}`;
}

/**
 * Joins records into lines, per stream: a P record waits for the rest of its line. Feed records in
 * file order; flush() returns what is still partial (the file ended inside a line).
 */
export class LineJoiner {
  private readonly pending = new Map<string, { first: CriLogRecord; parts: Buffer[] }>();

  /** Adds a record; returns the line it completes, if any. */
  push(rec: CriLogRecord): CriLogLine | undefined {
    const open = this.pending.get(rec.stream);
    if (!rec.full) {
      if (open) open.parts.push(rec.text);
      else this.pending.set(rec.stream, { first: rec, parts: [rec.text] });
      return undefined;
    }
    this.pending.delete(rec.stream);
    const first = open?.first ?? rec;
    const parts = open ? [...open.parts, rec.text] : [rec.text];
    return { time: first.time, timeMs: first.timeMs, stream: rec.stream, text: Buffer.concat([...parts, Buffer.from('\n')]) };
  }

  /** The partial lines still open, oldest first. */
  flush(): CriLogLine[] {
    const out = [...this.pending.values()].map(({ first, parts }) => ({ time: first.time, timeMs: first.timeMs, stream: first.stream, text: Buffer.concat(parts) }));
    this.pending.clear();
    return out.sort((a, b) => a.timeMs - b.timeMs);
  }
}
