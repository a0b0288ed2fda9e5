/**
 * kubelet's AtomicWriter: a volume's files are written into a fresh hidden directory
 * (..<timestamp>.<random>), the ..data symlink is swapped to it with one rename, and each top-level
 * name is a symlink into ..data, so a container never sees a half-written set. Nothing is
 * rewritten when the payload did not change.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, rename, rm, symlink, writeFile, chmod } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';

/** One file of a payload: its bytes and mode. */
export interface PayloadFile {
  readonly data: Buffer;
  readonly mode: number;
}

const dataDirName = '..data';

function timestampDirName(): string {
  const d = new Date();
  const p = (n: number): string => String(n).padStart(2, '0');
  return `..${d.getUTCFullYear()}_${p(d.getUTCMonth() + 1)}_${p(d.getUTCDate())}_${p(d.getUTCHours())}_${p(d.getUTCMinutes())}_${p(d.getUTCSeconds())}.${randomBytes(5).readUInt32BE() % 1_000_000_000}`;
}

/** Throws for a path that escapes the volume (absolute, or with ..), as kubelet validates them. */
export function validatePayloadPath(path: string): void {
  if (path === '' || path.startsWith('/') || normalize(path).split(sep).includes('..') || path.startsWith('..')) throw new Error(`invalid path: ${path}`);
}

async function unchanged(dir: string, payload: ReadonlyMap<string, PayloadFile>): Promise<boolean> {
  try {
    const current = join(dir, dataDirName);
    const target = await readlink(current);
    const existing = await listFiles(join(dir, target));
    if (existing.length !== payload.size) return false;
    for (const [path, f] of payload) {
      const st = await lstat(join(dir, target, path)).catch(() => undefined);
      if (!st || (st.mode & 0o7777) !== f.mode) return false;
      if (!(await readFile(join(dir, target, path))).equals(f.data)) return false;
    }
    return true;
  } catch {
    return false;
  }
}

async function listFiles(root: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(root, prefix), { withFileTypes: true })) {
    const rel = prefix ? join(prefix, e.name) : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(root, rel)));
    else out.push(rel);
  }
  return out;
}

/** Writes payload (relative path -> file) into dir atomically; returns whether anything changed. */
export async function writePayload(dir: string, payload: ReadonlyMap<string, PayloadFile>): Promise<boolean> {
  for (const path of payload.keys()) validatePayloadPath(path);
  await mkdir(dir, { recursive: true });
  if (await unchanged(dir, payload)) return false;
  const tsName = timestampDirName();
  const tsDir = join(dir, tsName);
  await mkdir(tsDir, { mode: 0o755 });
  for (const [path, f] of payload) {
    await mkdir(dirname(join(tsDir, path)), { recursive: true, mode: 0o755 });
    await writeFile(join(tsDir, path), f.data);
    await chmod(join(tsDir, path), f.mode);
  }
  const old = await readlink(join(dir, dataDirName)).catch(() => undefined);
  const tmpLink = join(dir, '..data_tmp');
  await rm(tmpLink, { force: true });
  await symlink(tsName, tmpLink);
  await rename(tmpLink, join(dir, dataDirName));
  const topLevel = new Set([...payload.keys()].map((p) => p.split('/')[0]!));
  for (const name of topLevel) {
    const link = join(dir, name);
    const st = await lstat(link).catch(() => undefined);
    if (!st) await symlink(join(dataDirName, name), link);
  }
  // Names no longer in the payload go, as does the previous generation.
  for (const name of await readdir(dir)) {
    if (name.startsWith('..') || topLevel.has(name)) continue;
    await rm(join(dir, name), { force: true, recursive: true });
  }
  if (old && old !== tsName) await rm(join(dir, old), { recursive: true, force: true });
  return true;
}
