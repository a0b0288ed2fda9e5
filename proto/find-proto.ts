/**
 * Finds a .proto file of the source tree at run time (tsc does not copy .proto files to dist/):
 * beside the calling module, or under proto/ in a directory above it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The path of proto/<relative> for the module at moduleUrl; throws when the source tree does not have it. */
export function findProtoFile(moduleUrl: string, relative: string): string {
  const start = dirname(fileURLToPath(moduleUrl));
  const base = relative.slice(relative.lastIndexOf('/') + 1);
  let dir = start;
  for (;;) {
    for (const candidate of [join(dir, base), join(dir, 'proto', relative)]) {
      if (existsSync(candidate)) return candidate;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`proto/${relative} not found above ${start}`);
    dir = up;
  }
}
