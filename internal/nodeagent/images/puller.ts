/**
 * kubelet's image manager (EnsureImageExists): pull per imagePullPolicy (Always; IfNotPresent;
 * Never, failing with ErrImageNeverPull when absent), with the pod's imagePullSecrets as
 * credentials, one pull at a time under --serialize-image-pulls, --registry-qps/--registry-burst
 * (a pull past the limit fails with "pull QPS exceeded", as kubelet's throttled image service
 * does), and a per pod and image back-off (10 s doubling to 5 min) during which the pull is not
 * tried again (ImagePullBackOff). Events carry kubelet's reasons and messages.
 */
import type { AuthConfig, PodSandboxConfig } from '../../../proto/cri/v1/types.js';
import { TokenBucket } from '../client/token-bucket.js';
import type { CriClient } from '../runtime/cri-client.js';
import { grpcErrorText } from '../runtime/grpc-error.js';
import { Backoff, goDuration } from '../pods/backoff.js';
import type { Container, Pod } from '../pods/types.js';

/** Why a container has no image (its waiting reason) and the message. */
export class ImageError extends Error {
  constructor(
    readonly reason: 'ErrImagePull' | 'ImagePullBackOff' | 'ErrImageNeverPull' | 'InvalidImageName',
    message: string,
  ) {
    super(message);
  }
}

/** Records an event about the container's image. */
export type ImageEventSink = (type: 'Normal' | 'Warning', reason: string, message: string) => void;

/** What the puller needs. */
export interface PullerOptions {
  readonly serializeImagePulls: boolean;
  readonly registryPullQPS: number;
  readonly registryBurst: number;
}

/** The pull policy the API server defaults (static pods may come without one). */
export function pullPolicyOf(c: Container): 'Always' | 'IfNotPresent' | 'Never' {
  if (c.imagePullPolicy) return c.imagePullPolicy;
  const image = c.image ?? '';
  const lastPart = image.split('/').pop() ?? '';
  if (image.includes('@')) return 'IfNotPresent';
  return !lastPart.includes(':') || lastPart.endsWith(':latest') ? 'Always' : 'IfNotPresent';
}

/** Ensures images exist on the node. */
export class ImagePuller {
  private readonly backoff = new Backoff(10_000, 300_000);
  private readonly bucket: TokenBucket | undefined;
  private serial: Promise<unknown> = Promise.resolve();
  private readonly prevErr = new Map<string, string>();

  constructor(
    private readonly cri: CriClient,
    private readonly opts: PullerOptions,
  ) {
    this.bucket = opts.registryPullQPS > 0 ? new TokenBucket(opts.registryPullQPS, Math.max(1, opts.registryBurst)) : undefined;
  }

  /** The image's id when present on the node. */
  async present(image: string): Promise<string | undefined> {
    const res = await this.cri.image.ImageStatus({ image: { image } });
    return res.image?.id || undefined;
  }

  /** Ensures c's image exists; resolves with the image ref, throws ImageError. */
  async ensure(pod: Pod, c: Container, credentials: readonly AuthConfig[], sandbox: PodSandboxConfig, event: ImageEventSink): Promise<string> {
    const image = c.image ?? '';
    if (!image) throw new ImageError('InvalidImageName', `Failed to apply default image tag "": couldn't parse image name "": invalid reference format`);
    const policy = pullPolicyOf(c);
    if (policy !== 'Always') {
      let ref: string | undefined;
      try {
        ref = await this.present(image);
      } catch (err) {
        throw new ImageError('ErrImagePull', grpcErrorText(err));
      }
      if (ref) {
        event('Normal', 'Pulled', `Container image "${image}" already present on machine`);
        return ref;
      }
      if (policy === 'Never') {
        const msg = `Container image "${image}" is not present with pull policy of Never`;
        event('Warning', 'ErrImageNeverPull', msg);
        throw new ImageError('ErrImageNeverPull', msg);
      }
    }
    const key = `${pod.metadata.uid}_${image}`;
    if (this.backoff.isInBackOffSinceUpdate(key)) {
      let msg = `Back-off pulling image "${image}"`;
      event('Normal', 'BackOff', msg);
      const prev = this.prevErr.get(key);
      if (prev) msg = `${msg}: ${prev}`;
      throw new ImageError('ImagePullBackOff', msg);
    }
    event('Normal', 'Pulling', `Pulling image "${image}"`);
    const started = Date.now();
    try {
      const { ref, pullMs } = await this.pull(image, credentials, sandbox);
      const size = await this.cri.image.ImageStatus({ image: { image } }).then((r) => String(r.image?.size ?? 0), () => '0');
      event('Normal', 'Pulled', `Successfully pulled image "${image}" in ${goDuration(pullMs)} (${goDuration(Date.now() - started)} including waiting). Image size: ${size} bytes.`);
      this.prevErr.delete(key);
      this.backoff.gc();
      return ref;
    } catch (err) {
      const text = err instanceof ImageError ? err.message : grpcErrorText(err);
      event('Warning', 'Failed', `Failed to pull image "${image}": ${text}`);
      this.backoff.next(key, Date.now());
      this.prevErr.set(key, `ErrImagePull: ${text}`);
      throw new ImageError('ErrImagePull', text);
    }
  }

  private async pull(image: string, credentials: readonly AuthConfig[], sandbox: PodSandboxConfig): Promise<{ ref: string; pullMs: number }> {
    const attempt = async (): Promise<{ ref: string; pullMs: number }> => {
      if (this.bucket && !this.bucket.tryTake()) throw new ImageError('ErrImagePull', 'pull QPS exceeded');
      const started = Date.now();
      // kubelet tries each matching credential and reports the last failure.
      const auths: Array<AuthConfig | undefined> = credentials.length > 0 ? [...credentials] : [undefined];
      let lastErr: unknown;
      for (const auth of auths) {
        try {
          const res = await this.cri.image.PullImage({ image: { image }, ...(auth ? { auth } : {}), sandbox_config: sandbox });
          return { ref: res.image_ref ?? '', pullMs: Date.now() - started };
        } catch (err) {
          lastErr = err;
        }
      }
      throw lastErr;
    };
    if (!this.opts.serializeImagePulls) return attempt();
    const run = this.serial.then(attempt, attempt);
    this.serial = run.catch(() => undefined);
    return run;
  }

  /** When pod uid's back-off for image ends (ms epoch), if one holds. */
  backoffUntil(uid: string, image: string): number | undefined {
    const key = `${uid}_${image}`;
    return this.backoff.isInBackOffSinceUpdate(key) ? this.backoff.lastUpdate(key)! + this.backoff.get(key) : undefined;
  }

  /** Forgets a removed pod's back-off entries. */
  forgetPod(uid: string): void {
    this.backoff.forget(`${uid}_`);
    for (const k of [...this.prevErr.keys()]) if (k.startsWith(`${uid}_`)) this.prevErr.delete(k);
  }
}
