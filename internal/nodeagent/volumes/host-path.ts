/**
 * hostPath volumes with kubelet's type checks: DirectoryOrCreate and FileOrCreate create what is
 * missing (a file's parent must exist), the other types must already be there as that kind of file.
 */
import { mkdir, stat, writeFile, chmod } from 'node:fs/promises';

/** Checks (and for the OrCreate types, creates) path per type; throws kubelet's message. */
export async function checkHostPath(path: string, type: string | undefined): Promise<void> {
  const st = await stat(path).catch(() => undefined);
  switch (type ?? '') {
    case '':
      return;
    case 'DirectoryOrCreate':
      if (!st) {
        await mkdir(path, { recursive: true, mode: 0o755 });
        await chmod(path, 0o755);
        return;
      }
      if (!st.isDirectory()) throw new Error(`hostPath type check failed: ${path} is not a directory`);
      return;
    case 'Directory':
      if (!st || !st.isDirectory()) throw new Error(`hostPath type check failed: ${path} is not a directory`);
      return;
    case 'FileOrCreate':
      if (!st) {
        await writeFile(path, '', { mode: 0o644, flag: 'a' });
        return;
      }
      if (!st.isFile()) throw new Error(`hostPath type check failed: ${path} is not a file`);
      return;
    case 'File':
      if (!st || !st.isFile()) throw new Error(`hostPath type check failed: ${path} is not a file`);
      return;
    case 'Socket':
      if (!st || !st.isSocket()) throw new Error(`hostPath type check failed: ${path} is not a socket file`);
      return;
    case 'CharDevice':
      if (!st || !st.isCharacterDevice()) throw new Error(`hostPath type check failed: ${path} is not a character device`);
      return;
    case 'BlockDevice':
      if (!st || !st.isBlockDevice()) throw new Error(`hostPath type check failed: ${path} is not a block device`);
      return;
    default:
      throw new Error(`hostPath type check failed: unknown type ${type}`);
  }
}
