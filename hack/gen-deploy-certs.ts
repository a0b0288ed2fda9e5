/**
 * `make deploy-certs` (or `node dist/hack/gen-deploy-certs.js <out> [flags]`): generates every
 * certificate of a production control plane (hack/deploy-pki.ts). Without flags the hosts are those
 * of deploy/compose/compose.yaml; for real machines name them:
 *
 *   node dist/hack/gen-deploy-certs.js /srv/capstan-pki \
 *     --etcd-member cp-1=192.168.10.11 --etcd-member cp-2=192.168.10.12 --etcd-member cp-3=192.168.10.13 \
 *     --apiserver cp-1=192.168.10.11 --apiserver cp-2=192.168.10.12 \
 *     --apiserver-ip 192.168.10.10 --apiserver-name capstan.example.com --server https://capstan.example.com:6443
 *
 * A host that is both an etcd member and an API server (the same name) gets one directory.
 */
import { composePlan, generateDeployPki, type DeployHost, type DeployPkiPlan } from './deploy-pki.js';

const usage = `usage: gen-deploy-certs <out-dir> [--etcd-member NAME=IP]... [--apiserver NAME=IP]...
  [--apiserver-ip IP]... [--apiserver-name DNS]... [--server URL] [--service-ip IP]
  [--dns-domain DOMAIN] [--days N]`;

function host(flag: string, v: string): DeployHost {
  const eq = v.indexOf('=');
  if (eq <= 0) throw new Error(`${flag} ${JSON.stringify(v)}: want NAME=IP`);
  return { name: v.slice(0, eq), ip: v.slice(eq + 1) };
}

/** Parses the command line into the output directory and the plan (compose's hosts by default). */
export function parseDeployCertArgs(argv: readonly string[]): { out: string; plan: DeployPkiPlan } {
  const lists: Record<string, string[]> = { 'etcd-member': [], apiserver: [], 'apiserver-ip': [], 'apiserver-name': [] };
  const single: Record<string, string | undefined> = { server: undefined, 'service-ip': undefined, 'dns-domain': undefined, days: undefined };
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith('--')) {
      if (out !== undefined) throw new Error(`unexpected argument ${a}\n${usage}`);
      out = a;
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
    const value = eq < 0 ? argv[++i] : a.slice(eq + 1);
    if (value === undefined) throw new Error(`--${name} needs a value\n${usage}`);
    if (name in lists) lists[name]!.push(...value.split(',').filter((v) => v));
    else if (name in single) single[name] = value;
    else throw new Error(`unknown flag --${name}\n${usage}`);
  }
  if (!out) throw new Error(usage);
  const days = single.days === undefined ? composePlan.validityDays : Number(single.days);
  if (!Number.isInteger(days) || days <= 0) throw new Error(`--days ${JSON.stringify(single.days)}: want a positive whole number`);
  const etcdMembers = lists['etcd-member']!.map((v) => host('--etcd-member', v));
  const apiServers = lists.apiserver!.map((v) => host('--apiserver', v));
  const plan: DeployPkiPlan = {
    etcdMembers: etcdMembers.length ? etcdMembers : composePlan.etcdMembers,
    apiServers: apiServers.length ? apiServers : composePlan.apiServers,
    apiServerIPs: lists['apiserver-ip']!.length ? lists['apiserver-ip']! : composePlan.apiServerIPs,
    apiServerNames: lists['apiserver-name']!.length ? lists['apiserver-name']! : composePlan.apiServerNames,
    serviceIP: single['service-ip'] ?? composePlan.serviceIP,
    dnsDomain: single['dns-domain'] ?? composePlan.dnsDomain,
    server: single.server ?? composePlan.server,
    validityDays: days,
  };
  return { out, plan };
}

async function main(argv: readonly string[]): Promise<void> {
  const { out, plan } = parseDeployCertArgs(argv);
  const written = await generateDeployPki(out, plan);
  const hosts = [...new Set([...plan.etcdMembers, ...plan.apiServers].map((h) => h.name))];
  process.stdout.write(
    `wrote ${written.length} files under ${out}\n` +
      hosts.map((h) => `  ${out}/${h}/pki -> /etc/kubernetes/pki on ${h}\n`).join('') +
      `  CA keys (keep offline): ${out}/ca\n  kubectl --kubeconfig ${out}/admin.conf get --raw /readyz\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`gen-deploy-certs: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
