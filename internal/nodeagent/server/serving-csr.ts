/**
 * serverTLSBootstrap: the kubelet's serving certificate from the API server (kubelet's serving
 * certificate manager): a kubernetes.io/kubelet-serving CertificateSigningRequest for
 * CN=system:node:<name>, O=system:nodes, with the Node's addresses as SANs (DNS names for the
 * Hostname/InternalDNS/ExternalDNS ones, IPs for the others), usages digital signature and server
 * auth; once approved and issued, the pair is written to <cert-dir>/kubelet-server-current.pem.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateKeyPem, requestCertificate } from '../certificate/csr.js';
import type { AgentContext } from '../interface.js';
import type { ServingPair } from './serving-cert.js';

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
  const key = await generateKeyPem();
  ctx.log.info('Requesting the serving certificate (kubernetes.io/kubelet-serving)');
  const cert = await requestCertificate(
    ctx.client,
    key,
    { commonName: `system:node:${ctx.nodeName}`, organizations: ['system:nodes'], dnsNames: names.dns, ips: names.ips },
    { signerName: 'kubernetes.io/kubelet-serving', usages: ['digital signature', 'server auth'], generateName: 'csr-', signal: ctx.signal },
  );
  const pair = { cert, key };
  await mkdir(ctx.config.certDir, { recursive: true });
  await writeFile(join(ctx.config.certDir, 'kubelet-server-current.pem'), pair.cert + pair.key, { mode: 0o600 });
  return pair;
}
