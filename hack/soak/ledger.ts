/**
 * The ledger of acknowledged writes: for each object the soak wrote, what the last acknowledged
 * write left (present with a value, or deleted), or unknown after a write that got no answer (it
 * may or may not have happened) until a read settles it. At the end every known entry is read
 * back: an acknowledged create or update whose object is missing or older, or an acknowledged
 * delete whose object is still there, is a lost write.
 */
import type { SoakClient } from './client.js';

/** What the ledger knows of one object. */
export type LedgerEntry = { readonly state: 'present'; readonly value: string } | { readonly state: 'deleted' } | { readonly state: 'unknown' };

/** The outcome of the final check. */
export interface LedgerCheck {
  /** Entries read back and compared. */
  readonly checked: number;
  /** Entries left unknown (a write without an answer, never settled). */
  readonly unknown: number;
  /** One line per lost write. */
  readonly lost: string[];
}

/** Acknowledged writes by object path. */
export class Ledger {
  readonly entries = new Map<string, LedgerEntry>();
  acknowledged = 0;

  /** A create or update of path was acknowledged, leaving value. */
  present(path: string, value: string): void {
    this.acknowledged++;
    this.entries.set(path, { state: 'present', value });
  }

  /** A delete of path was acknowledged. */
  deleted(path: string): void {
    this.acknowledged++;
    this.entries.set(path, { state: 'deleted' });
  }

  /** A write to path got no answer: it may or may not have happened. */
  unknown(path: string): void {
    this.entries.set(path, { state: 'unknown' });
  }

  /** A read settled path's state (not counted as an acknowledged write). */
  settled(path: string, entry: LedgerEntry): void {
    this.entries.set(path, entry);
  }

  /** Reads every known entry back; valueOf extracts the value a present object carries. */
  async check(client: SoakClient, valueOf: (path: string, object: any) => string): Promise<LedgerCheck> {
    const lost: string[] = [];
    let checked = 0;
    let unknown = 0;
    const paths = [...this.entries.keys()];
    const worker = async (): Promise<void> => {
      for (let p = paths.pop(); p !== undefined; p = paths.pop()) {
        const entry = this.entries.get(p) as LedgerEntry;
        if (entry.state === 'unknown') {
          unknown++;
          continue;
        }
        const res = await readBack(client, p);
        checked++;
        if (entry.state === 'deleted' && res.status !== 404) lost.push(`${p}: deleted (acknowledged) but GET answers ${res.status} ${res.body.slice(0, 120)}`);
        if (entry.state === 'present') {
          if (res.status !== 200) lost.push(`${p}: written (acknowledged, value ${entry.value}) but GET answers ${res.status} ${res.body.slice(0, 120)}`);
          else if (valueOf(p, res.json()) !== entry.value) lost.push(`${p}: last acknowledged value ${entry.value} but the object holds ${valueOf(p, res.json())}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    return { checked, unknown, lost };
  }
}

/** A GET retried while there is no answer or a 5xx (the end check must not fail on a blip). */
async function readBack(client: SoakClient, path: string): Promise<{ status: number; body: string; json(): any }> {
  let res = await client.raw('GET', path);
  for (let i = 0; i < 10 && (res.status === 0 || res.status >= 500); i++) {
    await new Promise((r) => setTimeout(r, 500));
    res = await client.raw('GET', path);
  }
  return res;
}
