/**
 * Go's texts for the system errors audit's file handling meets (syscall.Errno's strerror), so that
 * messages read as kube's: "open /x: permission denied", "write /dev/full: no space left on device".
 */

const texts: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
  EEXIST: 'file exists',
  EBADF: 'bad file descriptor',
  EFBIG: 'file too large',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many levels of symbolic links',
  EPIPE: 'broken pipe',
};

/** The Go text of a Node.js system error (its message when the code is not known). */
export function goErrnoText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return (code !== undefined ? texts[code] : undefined) ?? (err instanceof Error ? err.message : String(err));
}

/** A Go *PathError text: "<op> <path>: <errno text>". */
export function goPathError(op: string, path: string, err: unknown): string {
  return `${op} ${path}: ${goErrnoText(err)}`;
}
