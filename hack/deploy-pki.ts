/**
 * Every certificate and key a production control plane needs (deploy/compose, deploy/kubernetes),
 * laid out per host as kubeadm lays out /etc/kubernetes: `<out>/<host>/pki/...` is what that host
 * mounts at /etc/kubernetes/pki. The CA keys stay in `<out>/ca/` and are never mounted; rerunning
 * with the same <out> keeps the CAs and the service account key pair and re-issues every leaf.
 */
import { generateKeyPairSync } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';
import { createCertificateAuthority, issueCertificate, loadCertificateAuthority, type CertificateAuthority, type IssuedCertificate } from '../internal/server/pki.js';
import { kubeconfig } from './run-local.js';

/** A machine (or container) by its host name and the IP it is reached on. */
export interface DeployHost {
  readonly name: string;
  readonly ip: string;
}

/** What to generate. */
export interface DeployPkiPlan {
  readonly etcdMembers: readonly DeployHost[];
  readonly apiServers: readonly DeployHost[];
  /** Extra IP SANs of every serving certificate (the load balancer's address). */
  readonly apiServerIPs: readonly string[];
  /** Extra DNS SANs of every serving certificate (the load balancer's name). */
  readonly apiServerNames: readonly string[];
  /** The first IP of --service-cluster-ip-range: the `kubernetes` Service's ClusterIP. */
  readonly serviceIP: string;
  readonly dnsDomain: string;
  /** The URL admin.conf points kubectl at (the load balancer). */
  readonly server: string;
  /** Validity of leaf certificates in days (kubeadm: a year; CAs: ten years). */
  readonly validityDays: number;
}

/**
 * The hosts of deploy/compose/compose.yaml on its network 172.28.0.0/24; the load balancer is
 * `capstan` (172.28.0.10) and publishes 6443 on the host's loopback.
 */
export const composePlan: DeployPkiPlan = {
  etcdMembers: [1, 2, 3].map((i) => ({ name: `etcd-${i}`, ip: `172.28.0.${10 + i}` })),
  apiServers: [1, 2].map((i) => ({ name: `apiserver-${i}`, ip: `172.28.0.${20 + i}` })),
  apiServerIPs: ['172.28.0.10'],
  apiServerNames: ['capstan'],
  serviceIP: '10.0.0.1',
  dnsDomain: 'cluster.local',
  server: 'https://127.0.0.1:6443',
  validityDays: 365,
};

/** The files one host holds, relative to its /etc/kubernetes, with their PEM contents. */
export type HostFiles = Map<string, string>;

/** Refuses plans whose names would collide with the layout or whose addresses are not IPs. */
export function checkPlan(plan: DeployPkiPlan): void {
  if (plan.etcdMembers.length === 0) throw new Error('at least one etcd member is needed');
  if (plan.apiServers.length === 0) throw new Error('at least one API server is needed');
  for (const h of [...plan.etcdMembers, ...plan.apiServers]) {
    if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(h.name) || h.name === 'ca') throw new Error(`host name ${JSON.stringify(h.name)}: use a DNS name other than "ca"`);
    if (!isIP(h.ip)) throw new Error(`host ${h.name}: ${JSON.stringify(h.ip)} is not an IP address`);
  }
  for (const ip of [plan.serviceIP, ...plan.apiServerIPs]) if (!isIP(ip)) throw new Error(`${JSON.stringify(ip)} is not an IP address`);
  for (const list of [plan.etcdMembers, plan.apiServers]) {
    const names = list.map((h) => h.name);
    if (new Set(names).size !== names.length) throw new Error(`host names repeat: ${names.join(', ')}`);
  }
}

function put(files: HostFiles, name: string, issued: IssuedCertificate): void {
  files.set(`${name}.crt`, issued.cert);
  files.set(`${name}.key`, issued.key);
}

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

/** The CAs and the service account key pair (created, or read back from a previous run). */
export interface DeployAuthorities {
  readonly cluster: CertificateAuthority;
  readonly etcd: CertificateAuthority;
  readonly saKey: string;
  readonly saPub: string;
}

async function readOptional(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch(() => undefined);
}

async function writeSecret(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o755 });
  const secret = path.endsWith('.key') || path.endsWith('.conf');
  await writeFile(path, text, { mode: secret ? 0o600 : 0o644 });
  // writeFile keeps an existing file's mode; a rerun must not leave a key readable.
  await chmod(path, secret ? 0o600 : 0o644);
}

async function authority(dir: string, name: string, commonName: string): Promise<CertificateAuthority> {
  const [cert, key] = await Promise.all([readOptional(join(dir, `${name}.crt`)), readOptional(join(dir, `${name}.key`))]);
  if (cert && key) return loadCertificateAuthority(cert, key);
  const ca = await createCertificateAuthority(commonName, 3650);
  await writeSecret(join(dir, `${name}.key`), ca.keyPem);
  await writeSecret(join(dir, `${name}.crt`), ca.certPem);
  return ca;
}

/** Loads the authorities kept in `<out>/ca`, creating whichever is missing. */
export async function ensureAuthorities(out: string): Promise<DeployAuthorities> {
  const dir = join(out, 'ca');
  const cluster = await authority(dir, 'ca', 'kubernetes');
  const etcd = await authority(dir, 'etcd-ca', 'etcd-ca');
  let [saKey, saPub] = await Promise.all([readOptional(join(dir, 'sa.key')), readOptional(join(dir, 'sa.pub'))]);
  if (!saKey || !saPub) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    [saKey, saPub] = [pair.privateKey, pair.publicKey];
    await writeSecret(join(dir, 'sa.key'), saKey);
    await writeSecret(join(dir, 'sa.pub'), saPub);
  }
  return { cluster, etcd, saKey, saPub };
}

/** Issues every host's files (pki/... under its /etc/kubernetes) for plan; nothing is written. */
export async function issueHostFiles(plan: DeployPkiPlan, cas: DeployAuthorities): Promise<Map<string, HostFiles>> {
  checkPlan(plan);
  const notAfter = new Date(Date.now() + plan.validityDays * 24 * 3600 * 1000);
  const hosts = new Map<string, HostFiles>();
  const host = (name: string): HostFiles => hosts.get(name) ?? hosts.set(name, new Map()).get(name)!;
  for (const m of plan.etcdMembers) {
    const files = host(m.name);
    // kubeadm's etcd server and peer certificates: both usages, the member's name and address plus loopback.
    const names = { dns: unique([m.name, 'localhost']), ips: unique([m.ip, '127.0.0.1', '::1']) };
    files.set('pki/etcd/ca.crt', cas.etcd.certPem);
    put(files, 'pki/etcd/server', await issueCertificate(cas.etcd, { commonName: m.name, usage: 'both', ...names, notAfter }));
    put(files, 'pki/etcd/peer', await issueCertificate(cas.etcd, { commonName: m.name, usage: 'both', ...names, notAfter }));
    put(files, 'pki/etcd/healthcheck-client', await issueCertificate(cas.etcd, { commonName: 'kube-etcd-healthcheck-client', usage: 'client', notAfter }));
  }
  const etcdClient = await issueCertificate(cas.etcd, { commonName: 'kube-apiserver-etcd-client', usage: 'client', notAfter });
  const svc = ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', `kubernetes.default.svc.${plan.dnsDomain}`];
  for (const s of plan.apiServers) {
    const files = host(s.name);
    files.set('pki/ca.crt', cas.cluster.certPem);
    files.set('pki/etcd/ca.crt', cas.etcd.certPem);
    put(files, 'pki/apiserver', await issueCertificate(cas.cluster, {
      commonName: 'kube-apiserver',
      usage: 'server',
      dns: unique([s.name, ...svc, 'localhost', ...plan.apiServerNames]),
      ips: unique([plan.serviceIP, s.ip, '127.0.0.1', ...plan.apiServerIPs]),
      notAfter,
    }));
    put(files, 'pki/apiserver-etcd-client', etcdClient);
    files.set('pki/sa.key', cas.saKey);
    files.set('pki/sa.pub', cas.saPub);
  }
  return hosts;
}

/** Writes plan's files under out (keys and kubeconfigs 0600) and returns the paths written. */
export async function generateDeployPki(out: string, plan: DeployPkiPlan): Promise<string[]> {
  checkPlan(plan);
  await mkdir(out, { recursive: true, mode: 0o755 });
  const cas = await ensureAuthorities(out);
  const written: string[] = [];
  for (const [name, files] of await issueHostFiles(plan, cas)) {
    for (const [rel, text] of files) {
      const path = join(out, name, rel);
      await writeSecret(path, text);
      written.push(path);
    }
  }
  // kubeadm's super-admin: a member of system:masters, which no RBAC binding can take rights from.
  const admin = await issueCertificate(cas.cluster, { commonName: 'kubernetes-admin', organizations: ['system:masters'], usage: 'client', notAfter: new Date(Date.now() + plan.validityDays * 24 * 3600 * 1000) });
  const conf = kubeconfig(plan.server, cas.cluster.certPem, 'capstan', { clientCert: admin.cert, clientKey: admin.key });
  await writeSecret(join(out, 'admin.conf'), conf);
  written.push(join(out, 'admin.conf'));
  return written;
}
