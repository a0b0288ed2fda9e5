/**
 * The parts of core/v1 Pod the pod workers read, as they appear in JSON. Pods travel as plain
 * KubeObjects; these shapes only name the fields the workers use (everything is optional, as the
 * API server's defaulting may or may not have run for static pods).
 */
import type { KubeObject } from '../../../api/meta/types.js';

/** core/v1 ObjectFieldSelector. */
export interface FieldRef {
  apiVersion?: string;
  fieldPath: string;
}

/** core/v1 ResourceFieldSelector. */
export interface ResourceFieldRef {
  containerName?: string;
  resource: string;
  divisor?: string | number;
}

/** core/v1 KeySelector of a ConfigMap or Secret. */
export interface KeyRef {
  name?: string;
  key: string;
  optional?: boolean;
}

/** core/v1 EnvVar. */
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: FieldRef; resourceFieldRef?: ResourceFieldRef; configMapKeyRef?: KeyRef; secretKeyRef?: KeyRef };
}

/** core/v1 EnvFromSource. */
export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name?: string; optional?: boolean };
  secretRef?: { name?: string; optional?: boolean };
}

/** core/v1 ExecAction / HTTPGetAction / TCPSocketAction as lifecycle handlers use them. */
export interface Handler {
  exec?: { command?: string[] };
  httpGet?: { path?: string; port: number | string; host?: string; scheme?: string; httpHeaders?: Array<{ name: string; value: string }> };
  tcpSocket?: { port: number | string; host?: string };
  sleep?: { seconds: number };
}

/** core/v1 VolumeMount. */
export interface VolumeMount {
  name: string;
  mountPath: string;
  subPath?: string;
  subPathExpr?: string;
  readOnly?: boolean;
  mountPropagation?: 'None' | 'HostToContainer' | 'Bidirectional';
}

/** core/v1 ContainerPort. */
export interface ContainerPort {
  name?: string;
  containerPort: number;
  hostPort?: number;
  hostIP?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
}

/** core/v1 SecurityContext (the fields CRI takes). */
export interface SecurityContext {
  privileged?: boolean;
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  seccompProfile?: { type: string; localhostProfile?: string };
  procMount?: string;
}

/** core/v1 Container (init, sidecar or main). */
export interface Container {
  name: string;
  image?: string;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  command?: string[];
  args?: string[];
  workingDir?: string;
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  ports?: ContainerPort[];
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  volumeMounts?: VolumeMount[];
  lifecycle?: { postStart?: Handler; preStop?: Handler };
  livenessProbe?: unknown;
  readinessProbe?: unknown;
  startupProbe?: unknown;
  restartPolicy?: 'Always';
  terminationMessagePath?: string;
  terminationMessagePolicy?: 'File' | 'FallbackToLogsOnError';
  securityContext?: SecurityContext;
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
}

/** core/v1 KeyToPath. */
export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

/** core/v1 DownwardAPIVolumeFile. */
export interface DownwardAPIVolumeFile {
  path: string;
  fieldRef?: FieldRef;
  resourceFieldRef?: ResourceFieldRef;
  mode?: number;
}

/** core/v1 VolumeProjection. */
export interface VolumeProjection {
  configMap?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  secret?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items?: DownwardAPIVolumeFile[] };
  serviceAccountToken?: { audience?: string; expirationSeconds?: number; path: string };
}

/** core/v1 Volume (the sources the node agent supports). */
export interface Volume {
  name: string;
  emptyDir?: { medium?: '' | 'Memory'; sizeLimit?: string };
  configMap?: { name?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  secret?: { secretName?: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  projected?: { sources?: VolumeProjection[]; defaultMode?: number };
  downwardAPI?: { items?: DownwardAPIVolumeFile[]; defaultMode?: number };
  hostPath?: { path: string; type?: string };
  [other: string]: unknown;
}

/** core/v1 PodSpec. */
export interface PodSpec {
  nodeName?: string;
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  dnsPolicy?: 'ClusterFirst' | 'ClusterFirstWithHostNet' | 'Default' | 'None';
  dnsConfig?: { nameservers?: string[]; searches?: string[]; options?: Array<{ name: string; value?: string }> };
  hostname?: string;
  subdomain?: string;
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  hostAliases?: Array<{ ip: string; hostnames?: string[] }>;
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  imagePullSecrets?: Array<{ name?: string }>;
  securityContext?: {
    runAsUser?: number;
    runAsGroup?: number;
    supplementalGroups?: number[];
    fsGroup?: number;
    sysctls?: Array<{ name: string; value: string }>;
    seccompProfile?: { type: string; localhostProfile?: string };
  };
  readinessGates?: Array<{ conditionType: string }>;
}

/** A core/v1 Pod as the workers read it. */
export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: Record<string, unknown>;
}

/** The pod as the workers type it (no copy). */
export function asPod(obj: KubeObject): Pod {
  return obj as Pod;
}

/** kubelet's format.Pod: name_namespace(uid), as messages name a pod. */
export function formatPod(pod: KubeObject): string {
  return `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
}

/** True for a sidecar: an init container with restartPolicy Always. */
export function isSidecar(c: Container): boolean {
  return c.restartPolicy === 'Always';
}
