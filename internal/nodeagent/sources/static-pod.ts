/**
 * kubelet's treatment of pods from a manifest file or URL (pkg/kubelet/config common.go): decoded
 * and defaulted as the API server would, then applyDefaults gives each a uid hashed from its
 * content and source (stable across restarts, new when the manifest changes), the name
 * <name>-<nodeName>, namespace default when unset, spec.nodeName, the config.hash annotation and,
 * for files, a toleration of every NoExecute taint; finally it is validated as a create would be.
 */
import { createHash } from 'node:crypto';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../../api/meta/types.js';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../registry/generic/object-meta-validation.js';
import { defaultPodObject } from '../../registry/core/pods/defaults.js';
import { podStrategy } from '../../registry/core/pods/strategy.js';
import { fieldErrorMessage } from '../../validation/field-error.js';
import { canonicalJSON, configHashAnnotation } from './config-annotations.js';

/** Where a static pod came from: a manifest file (path) or the --manifest-url (url). */
export interface StaticPodOrigin {
  readonly kind: 'file' | 'http';
  /** The file's path or the URL. */
  readonly location: string;
  readonly nodeName: string;
}

/** A manifest that decoded as a pod (or pods) but could not be used: kubelet logs and skips it. */
export class InvalidManifestError extends Error {}

/** The uid kubelet gives a static pod without one: md5 of the decoded pod, then its source. */
export function staticPodUid(pod: KubeObject, origin: StaticPodOrigin): string {
  const hasher = createHash('md5');
  hasher.update(canonicalJSON(pod));
  if (origin.kind === 'file') {
    hasher.update(`host:${origin.nodeName}`);
    hasher.update(`file:${origin.location}`);
  } else {
    hasher.update(`url:${origin.location}`);
  }
  return hasher.digest('hex');
}

/** kubelet's generatePodName. */
export function staticPodName(name: string, nodeName: string): string {
  return `${name}-${nodeName.toLowerCase()}`;
}

/** applyDefaults: mutates pod (already API-defaulted) into the static pod kubelet runs. */
export function applyStaticPodDefaults(pod: KubeObject, origin: StaticPodOrigin): void {
  const meta = pod.metadata;
  if (!meta.uid) meta.uid = staticPodUid(pod, origin);
  meta.name = staticPodName(meta.name ?? '', origin.nodeName);
  if (!meta.namespace) meta.namespace = 'default';
  const spec = (pod.spec ?? (pod.spec = {})) as Record<string, unknown>;
  spec.nodeName = origin.nodeName;
  meta.annotations = { ...(meta.annotations ?? {}), [configHashAnnotation]: meta.uid };
  if (origin.kind === 'file') {
    const tolerations = Array.isArray(spec.tolerations) ? (spec.tolerations as Record<string, unknown>[]) : [];
    const wanted = { operator: 'Exists', effect: 'NoExecute' };
    // AddOrUpdateTolerationInPod: an equal toleration is not added twice.
    if (!tolerations.some((t) => !t.key && t.operator === 'Exists' && t.effect === 'NoExecute' && t.tolerationSeconds === undefined && !t.value)) {
      spec.tolerations = [...tolerations, wanted];
    }
  }
  pod.status = { phase: 'Pending' };
}

/** ValidatePodCreate of a static pod; the error list as kubelet prints it ("[a b]"), or undefined when valid. */
export function validateStaticPod(pod: KubeObject): string | undefined {
  const errs = [...validateObjectMeta(pod.metadata, true, nameIsDNSSubdomain), ...podStrategy.validate(undefined as never, pod)];
  return errs.length > 0 ? `[${errs.map(fieldErrorMessage).join(' ')}]` : undefined;
}

function decodePod(obj: KubeObject, origin: StaticPodOrigin): KubeObject {
  if (!obj.metadata?.name) throw new InvalidManifestError('invalid pod: name is needed for the pod');
  defaultPodObject(obj);
  applyStaticPodDefaults(obj, origin);
  const invalid = validateStaticPod(obj);
  if (invalid) throw new InvalidManifestError(`invalid pod: ${invalid}`);
  return obj;
}

function isV1(obj: Record<string, unknown>, kind: string): boolean {
  return obj.kind === kind && obj.apiVersion === 'v1';
}

/**
 * Decodes manifest data (YAML or JSON) as kubelet's tryDecodeSinglePod and, when allowList,
 * tryDecodePodList: one Pod, or a PodList (or v1 List of Pods). Throws InvalidManifestError for a
 * pod that is unusable, and a plain Error when the data is no pod at all.
 */
export function decodeManifest(data: string, origin: StaticPodOrigin, allowList: boolean): KubeObject[] {
  const docs = parseAllDocuments(data).filter((d) => d.contents !== null);
  if (docs.length !== 1) throw new Error(docs.length === 0 ? 'the manifest is empty' : 'a manifest holds one pod (or one list), not several YAML documents');
  const doc = docs[0]!;
  if (doc.errors.length > 0) throw new Error(doc.errors[0]!.message);
  const obj = doc.toJS() as Record<string, unknown>;
  if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw new Error('the manifest is not an object');
  // The decoder's own complaints (runtime.Decode of the JSON form).
  if (!obj.kind) throw new Error(`Object 'Kind' is missing in '${JSON.stringify(obj)}'`);
  if (!obj.apiVersion) throw new Error(`Object 'apiVersion' is missing in '${JSON.stringify(obj)}'`);
  if (isV1(obj, 'Pod')) return [decodePod(obj as unknown as KubeObject, origin)];
  if (allowList && (isV1(obj, 'PodList') || isV1(obj, 'List'))) {
    const items = Array.isArray(obj.items) ? (obj.items as Record<string, unknown>[]) : [];
    if (obj.kind === 'List' && items.some((i) => !isV1(i ?? {}, 'Pod'))) throw new Error('invalid pods list: every item of a List must be a v1 Pod');
    return items.map((item) => decodePod({ ...item, apiVersion: 'v1', kind: 'Pod', metadata: item.metadata ?? {} } as unknown as KubeObject, origin));
  }
  throw new Error(`invalid pod: the manifest is ${String(obj.apiVersion ?? '')}/${String(obj.kind ?? '')}, not a v1 Pod${allowList ? ' or PodList' : ''}`);
}
