/**
 * Test support: the real etcdctl (Debian's etcd-client, installed by hack/install-etcd.sh), to
 * read what the server stored without going through it.
 */
import { execFile } from 'node:child_process';

/** The raw value stored under key (empty when absent); throws when etcdctl fails. */
export function etcdctlGet(endpoint: string, key: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      'etcdctl',
      ['--endpoints', endpoint, 'get', key, '--print-value-only'],
      { encoding: 'buffer', env: { ...process.env, ETCDCTL_API: '3' }, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`etcdctl get ${key}: ${err.message} ${stderr.toString()}`));
        // etcdctl ends the value with a newline.
        else resolve(stdout.length > 0 && stdout[stdout.length - 1] === 0x0a ? stdout.subarray(0, stdout.length - 1) : stdout);
      },
    );
  });
}
