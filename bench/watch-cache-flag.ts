/**
 * Whether this build of the server has a watch cache that can be switched off: asks the server's
 * own flag parser what `--watch-cache=false` gives. The cache is being written alongside this
 * suite, so the answer decides at run time whether the "cache off" variants run.
 */
import { parseFlags } from '../internal/server/options/flags.js';

/** True when --watch-cache=false parses to options with watchCache === false. */
export function hasWatchCacheFlag(): boolean {
  const parsed = parseFlags(['--etcd-servers=http://127.0.0.1:2379', '--watch-cache=false'], 'bench');
  return parsed.kind === 'run' && (parsed.options as unknown as Record<string, unknown>).watchCache === false;
}
