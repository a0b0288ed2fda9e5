/**
 * The parts of a v1 PodSpec and ObjectMeta that the Pod Security Standards read, typed loosely:
 * objects reach admission as decoded JSON, so every field may be missing.
 */

/** core/v1 SecurityContext fields the checks read. */
export interface ContainerSecurityContext {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  procMount?: string;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  seLinuxOptions?: SELinuxOptions;
  seccompProfile?: { type?: string };
  appArmorProfile?: { type?: string };
  windowsOptions?: { hostProcess?: boolean };
}

/** core/v1 SELinuxOptions. */
export interface SELinuxOptions {
  user?: string;
  role?: string;
  type?: string;
  level?: string;
}

/** A container, init container or ephemeral container. */
export interface Container {
  name?: string;
  image?: string;
  ports?: Array<{ hostPort?: number }>;
  securityContext?: ContainerSecurityContext;
}

/** core/v1 PodSecurityContext fields the checks read. */
export interface PodSecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  seLinuxOptions?: SELinuxOptions;
  seccompProfile?: { type?: string };
  appArmorProfile?: { type?: string };
  windowsOptions?: { hostProcess?: boolean };
  sysctls?: Array<{ name?: string; value?: string }>;
}

/** core/v1 Volume: its name and whichever source field is set. */
export type Volume = { name?: string } & Record<string, unknown>;

/** core/v1 PodSpec fields the checks read. */
export interface PodSpec {
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  securityContext?: PodSecurityContext;
  containers?: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  volumes?: Volume[];
  runtimeClassName?: string;
  os?: { name?: string };
  hostUsers?: boolean;
}

/** The pod (template) metadata the checks read. */
export interface PodMetadata {
  name?: string;
  annotations?: Record<string, string>;
  ownerReferences?: Array<{ uid?: string; controller?: boolean }>;
}
