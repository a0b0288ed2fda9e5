/**
 * kube-controller-manager's csrsigning loop, run inside the API server: an approved, not failed CSR
 * without a certificate whose signer has a CA (--cluster-signing-* flags) gets one, issued with
 * kcm's rules (issue.ts) after the signer's checks of the request; a request those checks refuse gets
 * kcm's Failed condition (reason SignerValidationFailure) instead.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { InServerController } from '../../server/in-server-controllers.js';
import { defaultCsrSigningOptions } from '../../server/options/csr-signing.js';
import { ResourceClient } from '../resource-client.js';
import { WorkQueue } from '../work-queue.js';
import { certificateLifetimeMs, issueFromRequest, loadSigningAuthority, type SigningAuthority } from './issue.js';
import { hasCondition, parseRequest, signerChecks, usagesOf } from './request.js';

type Outcome = { certificate: string } | { failed: string };

/** What to write for csr: a certificate, a failure, or nothing (not ours, not approved, done). */
export async function signingOutcome(csr: KubeObject, authorities: ReadonlyMap<string, SigningAuthority>, durationMs: number): Promise<Outcome | undefined> {
  const spec = (csr.spec ?? {}) as Record<string, unknown>;
  const signer = String(spec.signerName ?? '');
  const ca = authorities.get(signer);
  const check = signerChecks[signer];
  if (!ca || !check) return undefined;
  if (!hasCondition(csr, 'Approved') || hasCondition(csr, 'Failed') || hasCondition(csr, 'Denied')) return undefined;
  const status = (csr.status ?? {}) as Record<string, unknown>;
  if (typeof status.certificate === 'string' && status.certificate.length > 0) return undefined;
  let req;
  try {
    req = parseRequest(csr);
    if (!(await req.csr.verify())) throw new Error('x509: ECDSA verification failure');
  } catch (err) {
    return { failed: `unable to parse csr ${JSON.stringify(csr.metadata.name)}: ${(err as Error).message}` };
  }
  const usages = usagesOf(csr);
  const problem = check(req, usages);
  if (problem) return { failed: problem };
  const expirationSeconds = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : undefined;
  const pem = await issueFromRequest(ca, req, usages, certificateLifetimeMs(durationMs, expirationSeconds));
  return { certificate: Buffer.from(pem).toString('base64') };
}

/** The loop, for the in-server list (idle without a signing CA). */
export const csrSigningController: InServerController = {
  name: 'certificatesigningrequest-signing-controller',
  controllerManagerAlias: 'csrsigning',
  start(deps) {
    const options = deps.options.csrSigning ?? defaultCsrSigningOptions;
    const statusStorage = deps.storageOf('certificates.k8s.io', 'certificatesigningrequests', 'status');
    if (options.signers.size === 0 || !statusStorage) return () => undefined;
    const informer = deps.informers.get('certificates.k8s.io', 'certificatesigningrequests');
    const client = new ResourceClient(statusStorage, 'certificates.k8s.io', 'certificatesigningrequests');
    const authorities = (async () => {
      const out = new Map<string, SigningAuthority>();
      for (const [signer, files] of options.signers) out.set(signer, await loadSigningAuthority(files.certPem, files.keyPem));
      return out;
    })();
    const queue = new WorkQueue(
      async (name) => {
        const csr = informer.get(name);
        if (!csr) return;
        const outcome = await signingOutcome(csr, await authorities, options.durationMs);
        if (!outcome) return;
        try {
          await client.update(name, '', (current) => {
            const status = (current.status ?? {}) as Record<string, unknown>;
            if (typeof status.certificate === 'string' && status.certificate) return current;
            if ('certificate' in outcome) {
              current.status = { ...status, certificate: outcome.certificate };
            } else {
              const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
              const conditions = [...((status.conditions ?? []) as unknown[])];
              conditions.push({ type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: outcome.failed, lastUpdateTime: now, lastTransitionTime: now });
              current.status = { ...status, conditions };
            }
            return current;
          });
        } catch (err) {
          if (hasReason(err, 'NotFound')) return;
          throw err;
        }
      },
      { onDrop: (name, err) => deps.log.warn(`csrsigning: signing ${name} failed: ${(err as Error).message}`) },
    );
    const enqueue = (csr: KubeObject): void => queue.add(csr.metadata.name ?? '');
    informer.addHandlers({ added: enqueue, updated: enqueue });
    return () => queue.stop();
  },
};
