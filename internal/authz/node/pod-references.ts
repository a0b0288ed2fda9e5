/**
 * The objects a pod or a persistent volume names, as kube's podutil.VisitPodSecretNames,
 * VisitPodConfigmapNames, the pod's claims and pvutil.VisitPVSecretNames find them: image pull
 * secrets, env and envFrom of every container (init, regular, ephemeral), and every volume type
 * that refers to a secret or config map (projected sources included). Objects are read in their
 * stored (v1) JSON form; missing fields are simply absent.
 */
import type { KubeObject } from '../../../api/meta/types.js';

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

function list(v: unknown): Obj[] {
  return Array.isArray(v) ? (v.filter((e) => obj(e)) as Obj[]) : [];
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function field(o: Obj | undefined, ...path: string[]): unknown {
  let cur: unknown = o;
  for (const p of path) cur = obj(cur)?.[p];
  return cur;
}

function specOf(o: KubeObject): Obj {
  return obj((o as Obj).spec) ?? {};
}

function containersOf(spec: Obj): Obj[] {
  return [...list(spec.initContainers), ...list(spec.containers), ...list(spec.ephemeralContainers)];
}

/** The names of the secrets the pod uses (its namespace's). */
export function podSecretNames(pod: KubeObject): Set<string> {
  const spec = specOf(pod);
  const names = new Set<string>();
  const add = (v: unknown): void => {
    const s = str(v);
    if (s) names.add(s);
  };
  for (const s of list(spec.imagePullSecrets)) add(s.name);
  for (const c of containersOf(spec)) {
    for (const e of list(c.envFrom)) add(field(e, 'secretRef', 'name'));
    for (const e of list(c.env)) add(field(e, 'valueFrom', 'secretKeyRef', 'name'));
  }
  for (const v of list(spec.volumes)) {
    add(field(v, 'azureFile', 'secretName'));
    add(field(v, 'cephfs', 'secretRef', 'name'));
    add(field(v, 'cinder', 'secretRef', 'name'));
    add(field(v, 'flexVolume', 'secretRef', 'name'));
    for (const s of list(field(v, 'projected', 'sources'))) add(field(s, 'secret', 'name'));
    add(field(v, 'rbd', 'secretRef', 'name'));
    add(field(v, 'secret', 'secretName'));
    add(field(v, 'scaleIO', 'secretRef', 'name'));
    add(field(v, 'iscsi', 'secretRef', 'name'));
    add(field(v, 'storageos', 'secretRef', 'name'));
    add(field(v, 'csi', 'nodePublishSecretRef', 'name'));
  }
  return names;
}

/** The names of the config maps the pod uses. */
export function podConfigMapNames(pod: KubeObject): Set<string> {
  const spec = specOf(pod);
  const names = new Set<string>();
  const add = (v: unknown): void => {
    const s = str(v);
    if (s) names.add(s);
  };
  for (const c of containersOf(spec)) {
    for (const e of list(c.envFrom)) add(field(e, 'configMapRef', 'name'));
    for (const e of list(c.env)) add(field(e, 'valueFrom', 'configMapKeyRef', 'name'));
  }
  for (const v of list(spec.volumes)) {
    add(field(v, 'configMap', 'name'));
    for (const s of list(field(v, 'projected', 'sources'))) add(field(s, 'configMap', 'name'));
  }
  return names;
}

/** The claims the pod's volumes use: persistentVolumeClaim.claimName, and "<pod>-<volume>" for ephemeral volumes. */
export function podClaimNames(pod: KubeObject): Set<string> {
  const names = new Set<string>();
  for (const v of list(specOf(pod).volumes)) {
    const claim = str(field(v, 'persistentVolumeClaim', 'claimName'));
    if (claim) names.add(claim);
    else if (obj(v.ephemeral)) names.add(`${pod.metadata.name ?? ''}-${str(v.name)}`);
  }
  return names;
}

/**
 * The ResourceClaims the pod uses (kube's resourceclaim.Name): a claim named directly, or the
 * claim generated from a template as pod.status.resourceClaimStatuses records it (none yet: none).
 */
export function podResourceClaimNames(pod: KubeObject): Set<string> {
  const names = new Set<string>();
  const statuses = list(field(pod as Obj, 'status', 'resourceClaimStatuses'));
  for (const c of list(specOf(pod).resourceClaims)) {
    const direct = str(c.resourceClaimName);
    if (direct) {
      names.add(direct);
      continue;
    }
    if (!str(c.resourceClaimTemplateName)) continue;
    const generated = str(statuses.find((s) => s.name === c.name)?.resourceClaimName);
    if (generated) names.add(generated);
  }
  return names;
}

/** Calls visit(namespace, name) for each secret a kubelet reads to mount the persistent volume. */
export function visitPVKubeletSecrets(pv: KubeObject, visit: (namespace: string, name: string) => void): void {
  const spec = specOf(pv);
  const claimNamespace = str(field(spec, 'claimRef', 'namespace'));
  const ref = (r: unknown): void => {
    const name = str(field(obj(r), 'name'));
    if (name) visit(str(field(obj(r), 'namespace')) || claimNamespace, name);
  };
  const azure = obj(spec.azureFile);
  if (azure && str(azure.secretName)) visit(str(azure.secretNamespace) || claimNamespace || 'default', str(azure.secretName));
  ref(field(spec, 'cephfs', 'secretRef'));
  ref(field(spec, 'cinder', 'secretRef'));
  ref(field(spec, 'flexVolume', 'secretRef'));
  ref(field(spec, 'rbd', 'secretRef'));
  ref(field(spec, 'scaleIO', 'secretRef'));
  ref(field(spec, 'iscsi', 'secretRef'));
  ref(field(spec, 'storageos', 'secretRef'));
  // CSI: the controller's secrets stay with the controller; the node's are the kubelet's.
  const csi = obj(spec.csi);
  if (csi) for (const k of ['nodePublishSecretRef', 'nodeStageSecretRef', 'nodeExpandSecretRef']) ref(csi[k]);
}
