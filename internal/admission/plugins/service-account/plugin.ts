/**
 * ServiceAccount (kube's admission plugin of that name), on pod creation: sets the service account
 * "default" when none is named, refuses (403) a pod whose account does not exist, mounts the
 * projected token volume (token-volume.ts) in every init container and container unless the pod or
 * its account turns automountServiceAccountToken off, copies the account's imagePullSecrets when
 * the pod has none, enforces kubernetes.io/enforce-mountable-secrets, and keeps mirror pods from
 * referencing accounts, secrets and token projections. Accounts are read from the shared informer,
 * then from storage (retried for "default", which its controller may be about to create).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Informer } from '../../../controllers/informer.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { admissionForbidden } from '../pod-shared/forbidden.js';
import { cached, waitForReady, type LiveGet } from '../pod-shared/lookup.js';
import { isPodRequest, mirrorPodAnnotation, podSpec, type Container, type Pod, type PodSpec } from '../pod-shared/pod-types.js';
import { enforcesMountableSecrets, mirrorPodViolation, secretReferenceViolation } from './mountable-secrets.js';
import { defaultAPITokenMountPath, generateName, serviceAccountVolumeName, tokenVolume } from './token-volume.js';

/** The account a pod gets when it names none. */
export const defaultServiceAccountName = 'default';

/** The ServiceAccount plugin. */
export class ServiceAccountAdmission implements AdmissionPlugin {
  readonly name = 'ServiceAccount';

  constructor(
    private readonly accounts: Informer,
    private readonly liveGet: LiveGet,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
    private readonly newVolumeName: (base: string) => string = generateName,
  ) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE';
  }

  async admit(attrs: AdmissionAttributes, ctx: RequestContext): Promise<void> {
    if (!isPodRequest(attrs.group, attrs.resource, attrs.subresource) || !attrs.object) return;
    const pod = attrs.object as Pod;
    // A mirror pod's spec must stay as its node wrote it: only the checks apply.
    if (pod.metadata.annotations?.[mirrorPodAnnotation] === undefined) {
      const spec = podSpec(pod);
      if (!spec.serviceAccountName) spec.serviceAccountName = spec.serviceAccount || defaultServiceAccountName;
      // The deprecated alias reads back as the account's name, as kube's v1 conversion writes it.
      spec.serviceAccount = spec.serviceAccountName;
      const account = await this.account(attrs, spec.serviceAccountName);
      if (shouldAutomount(account, spec)) this.mountToken(spec);
      if (!spec.imagePullSecrets || spec.imagePullSecrets.length === 0) {
        const pull = Array.isArray(account.imagePullSecrets) ? (account.imagePullSecrets as { name?: string }[]) : [];
        spec.imagePullSecrets = pull.map((r) => ({ name: r.name ?? '' }));
        if (spec.imagePullSecrets.length === 0) delete spec.imagePullSecrets;
      }
    }
    await this.validate(attrs, ctx);
  }

  async validate(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (!isPodRequest(attrs.group, attrs.resource, attrs.subresource) || !attrs.object) return;
    const pod = attrs.object as Pod;
    const spec: PodSpec = pod.spec ?? {};
    if (pod.metadata.annotations?.[mirrorPodAnnotation] !== undefined) {
      const why = mirrorPodViolation(pod, spec);
      if (why) throw admissionForbidden(attrs, why);
      return;
    }
    const account = await this.account(attrs, spec.serviceAccountName ?? '');
    if (enforcesMountableSecrets(account)) {
      const why = secretReferenceViolation(account, spec);
      if (why) throw admissionForbidden(attrs, why);
    }
  }

  /** The named account of the request's namespace, or a 403 with kube's message. */
  private async account(attrs: AdmissionAttributes, name: string): Promise<KubeObject> {
    const ns = attrs.namespace;
    await waitForReady(this.accounts);
    const hit = cached(this.accounts, ns, name);
    if (hit) return hit;
    // The cache may lag a new account; the default one may be about to be created by its controller.
    const attempts = name === defaultServiceAccountName ? 10 : 1;
    const retryMs = 100 + Math.floor(Math.random() * 100);
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await this.sleep(retryMs);
      let found: KubeObject | undefined;
      try {
        found = await this.liveGet(ns, name);
      } catch (err) {
        throw admissionForbidden(attrs, `error looking up service account ${ns}/${name}: ${(err as Error).message}`);
      }
      if (found) return found;
    }
    throw admissionForbidden(attrs, `error looking up service account ${ns}/${name}: serviceaccount "${name}" not found`);
  }

  /** Adds the token volume (unless one is there) and its mount to every container without one at the path. */
  private mountToken(spec: PodSpec): void {
    const existing = (spec.volumes ?? []).find((v) => v.name.startsWith(`${serviceAccountVolumeName}-`));
    const volumeName = existing?.name ?? this.newVolumeName(`${serviceAccountVolumeName}-`);
    let needsVolume = false;
    const mount = (c: Container): void => {
      if ((c.volumeMounts ?? []).some((m) => m.mountPath === defaultAPITokenMountPath)) return;
      c.volumeMounts = [...(c.volumeMounts ?? []), { name: volumeName, readOnly: true, mountPath: defaultAPITokenMountPath }];
      needsVolume = true;
    };
    for (const c of spec.initContainers ?? []) mount(c);
    for (const c of spec.containers ?? []) mount(c);
    if (!existing && needsVolume) spec.volumes = [...(spec.volumes ?? []), tokenVolume(volumeName)];
  }
}

/** The pod's automountServiceAccountToken, else the account's, else true. */
function shouldAutomount(account: KubeObject, spec: PodSpec): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  if (typeof account.automountServiceAccountToken === 'boolean') return account.automountServiceAccountToken;
  return true;
}
