/**
 * `make user NAME=alice GROUPS=dev,qa`: signs a client certificate for a user with the client CA
 * of `make run` (.local/pki) and writes .local/users/<name>.kubeconfig for it. The user is the
 * certificate's CN and its groups the O entries; what they may do is up to RBAC (bind them with
 * `kubectl create rolebinding ... --user=<name>` as the admin).
 *
 *   node dist/hack/add-user.js <name> [--group <group>]... [--server https://127.0.0.1:6443]
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { issueCertificate } from '../internal/server/pki.js';
import { ensureClientCA, localPkiPaths } from './local-pki.js';
import { kubeconfig } from './run-local.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function main(argv: readonly string[]): Promise<void> {
  const groups: string[] = [];
  let name: string | undefined;
  let server = 'https://127.0.0.1:6443';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--group') groups.push(...(argv[++i] ?? '').split(',').filter((g) => g));
    else if (a.startsWith('--group=')) groups.push(...a.slice(8).split(',').filter((g) => g));
    else if (a === '--server') server = argv[++i] ?? server;
    else if (a.startsWith('--server=')) server = a.slice(9);
    else if (!a.startsWith('-') && name === undefined) name = a;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!name) throw new Error('usage: add-user <name> [--group <group>]... [--server <url>]');
  if (!/^[A-Za-z0-9._@:-]+$/.test(name)) throw new Error(`user name ${JSON.stringify(name)}: use letters, digits and . _ @ : -`);
  const local = join(root, '.local');
  const pki = localPkiPaths(join(local, 'pki'));
  const ca = await ensureClientCA(pki);
  const servingCA = await readFile(join(local, 'certs', 'ca.crt'), 'utf8').catch(() => {
    throw new Error('no .local/certs/ca.crt: run `make run` once first');
  });
  const issued = await issueCertificate(ca, { commonName: name, organizations: groups, usage: 'client' });
  const out = join(local, 'users', `${name}.kubeconfig`);
  await mkdir(dirname(out), { recursive: true, mode: 0o700 });
  await writeFile(out, kubeconfig(server, servingCA, 'capstan', { clientCert: issued.cert, clientKey: issued.key }).replace(/capstan-admin/g, `capstan-${name}`), { mode: 0o600 });
  process.stdout.write(`${out}\n  user ${name}${groups.length ? `, groups ${groups.join(', ')}` : ''}\n  kubectl --kubeconfig ${out} auth whoami\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`add-user: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
