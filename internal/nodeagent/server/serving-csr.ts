/**
 * serverTLSBootstrap: the kubelet's serving certificate from the API server (kubelet's serving
 * certificate manager): a kubernetes.io/kubelet-serving CertificateSigningRequest for
 * CN=system:node:<name>, O=system:nodes, with the Node's addresses as SANs (DNS names for the
 * Hostname/InternalDNS/ExternalDNS ones, IPs for the others), usages digital signature and server
 * auth; once approved and issued, the pair is written to <cert-dir>/kubelet-server-current.pem.
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import type { AgentContext } from '../interface.js';
import type { ServingPair } from './serving-cert.js';

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
type Obj = Record<string, unknown>;

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(t); resolve(); }, { once: true });
  });

/** The SANs of the node's reported addresses (waits until the Node has some). */
async function nodeAddresses(ctx: AgentContext, pollMs: number): Promise<{ dns: string[]; ips: string[] }> {
  for (;;) {
    if (ctx.signal.aborted) throw new Error('stopped while waiting for the node addresses');
    const node = await ctx.client.get(`/api/v1/nodes/${encodeURIComponent(ctx.nodeName)}`).catch(() => undefined) as Obj | undefined;
    const addresses = ((node?.status as Obj | undefined)?.addresses as Obj[] | undefined) ?? [];
    if (addresses.length > 0) {
      const dns = new Set<string>();
      const ips = new Set<string>();
      for (const a of addresses) {
        const v = String(a.address ?? '');
        if (!v) continue;
        if (a.type === 'Hostname' || a.type === 'InternalDNS' || a.type === 'ExternalDNS') dns.add(v);
        else ips.add(v);
      }
      return { dns: [...dns], ips: [...ips] };
    }
    await sleep(pollMs, ctx.signal);
  }
}

/** Requests, waits for and stores the serving certificate; rejects when denied or failed. */
export async function bootstrapServingCertificate(ctx: AgentContext, pollMs = 1000): Promise<ServingPair> {
  const names = await nodeAddresses(ctx, pollMs);
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: `O=system:nodes, CN=system:node:${ctx.nodeName}`,
    keys,
    signingAlgorithm: algorithm,
    extensions: [new x509.SubjectAlternativeNameExtension([...names.dns.map((value) => ({ type: 'dns' as const, value })), ...names.ips.map((value) => ({ type: 'ip' as const, value }))])],
  });
  const created = (await ctx.client.create('/apis/certificates.k8s.io/v1/certificatesigningrequests', {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { generateName: 'csr-' },
    spec: { request: Buffer.from(csr.toString('pem')).toString('base64'), signerName: 'kubernetes.io/kubelet-serving', usages: ['digital signature', 'server auth'] },
  })) as Obj;
  const name = String((created.metadata as Obj).name);
  ctx.log.info(`Waiting for the serving certificate: CertificateSigningRequest ${name}`);
  for (;;) {
    if (ctx.signal.aborted) throw new Error('stopped while waiting for the serving certificate');
    const csrObj = (await ctx.client.get(`/apis/certificates.k8s.io/v1/certificatesigningrequests/${name}`).catch(() => undefined)) as Obj | undefined;
    const status = (csrObj?.status as Obj | undefined) ?? {};
    const conditions = (status.conditions as Obj[] | undefined) ?? [];
    if (conditions.some((c) => c.type === 'Denied')) throw new Error(`certificate request was denied`);
    if (conditions.some((c) => c.type === 'Failed')) throw new Error(`certificate request failed`);
    if (typeof status.certificate === 'string' && status.certificate !== '') {
      const key = `-----BEGIN PRIVATE KEY-----\n${Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
      const pair = { cert: Buffer.from(status.certificate, 'base64').toString('utf8'), key };
      await mkdir(ctx.config.certDir, { recursive: true });
      await writeFile(join(ctx.config.certDir, 'kubelet-server-current.pem'), pair.cert + pair.key, { mode: 0o600 });
      return pair;
    }
    await sleep(pollMs, ctx.signal);
  }
}
