/**
 * Client certificate rotation (kubelet's certificate manager with rotateCertificates): at a random
 * point between 70% and 90% of the current certificate's lifetime, a new key and a CSR made with
 * the current credentials (approved as selfnodeclient), the new pair stored in --cert-dir and
 * swapped into the live client. Failures retry with a back-off doubling from 2 s to 5 min; the
 * current certificate stays in use meanwhile.
 */
import type { Logger } from '../../observability/logging.js';
import type { ApiClient } from '../client/api-client.js';
import { generateKeyPem, kubeletClientSigner, kubeletClientUsages, requestCertificate } from './csr.js';
import type { CertificateStore, StoredPair } from './store.js';

/** What rotation works on. */
export interface RotationDeps {
  readonly client: ApiClient;
  readonly store: CertificateStore;
  /** The certificate in use; absent (token credentials) means one is requested at once. */
  readonly pair?: StoredPair;
  readonly nodeName: string;
  readonly log: Logger;
  /** Called after each swap (tests). */
  readonly onRotated?: (pair: StoredPair) => void;
  /** The jitter source (tests pin it; default Math.random). */
  readonly random?: () => number;
}

/** kubelet's jittery deadline: notBefore + lifetime x [0.7, 0.9). */
export function rotationDeadline(pair: Pick<StoredPair, 'notBefore' | 'notAfter'>, random = Math.random): Date {
  const total = pair.notAfter.getTime() - pair.notBefore.getTime();
  return new Date(pair.notBefore.getTime() + total * (0.7 + 0.2 * random()));
}

/** Starts rotating; stop() ends it (a request in flight is abandoned). */
export function startClientRotation(deps: RotationDeps): { stop(): void } {
  const stopped = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;
  const schedule = (pair: StoredPair): void => {
    const deadline = rotationDeadline(pair, deps.random);
    deps.log.info('Certificate rotation deadline determined', { expiration: pair.notAfter.toISOString(), deadline: deadline.toISOString() });
    arm(Math.max(0, deadline.getTime() - Date.now()));
  };
  const arm = (ms: number): void => {
    // setTimeout's limit is 2^31-1 ms (~24.8 days): longer waits re-arm.
    const wait = Math.min(ms, 2 ** 31 - 1);
    timer = setTimeout(() => void (wait < ms ? arm(ms - wait) : rotate()), wait);
    timer.unref();
  };
  const rotate = async (): Promise<void> => {
    if (stopped.signal.aborted) return;
    deps.log.info('Rotating certificates');
    try {
      const keyPem = await generateKeyPem();
      const certPem = await requestCertificate(
        deps.client,
        keyPem,
        { commonName: `system:node:${deps.nodeName}`, organizations: ['system:nodes'] },
        { signerName: kubeletClientSigner, usages: kubeletClientUsages, signal: stopped.signal, timeoutMs: 15 * 60_000 },
      );
      const pair = await deps.store.update(certPem, keyPem);
      // The certificate replaces a bearer token too, as kubelet's transport then presents the certificate.
      deps.client.setCredentials({ clientCert: Buffer.from(pair.certPem), clientKey: Buffer.from(pair.keyPem), token: undefined });
      deps.log.info('Certificate rotation detected, shutting down client connections to start using new credentials');
      failures = 0;
      deps.onRotated?.(pair);
      schedule(pair);
    } catch (err) {
      if (stopped.signal.aborted) return;
      failures++;
      const backoff = Math.min(300_000, 2000 * 2 ** (failures - 1));
      deps.log.error(`Failed while requesting a signed certificate from the control plane: ${(err as Error).message}`, { retryIn: `${backoff / 1000}s` });
      arm(backoff);
    }
  };
  if (deps.pair) schedule(deps.pair);
  else arm(0);
  return {
    stop() {
      stopped.abort();
      if (timer) clearTimeout(timer);
    },
  };
}
