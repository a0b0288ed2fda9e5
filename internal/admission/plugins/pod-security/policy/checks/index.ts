/** Every check of the Pod Security Standards as kube 1.33 defines them (policy.DefaultChecks). */
import type { Check } from '../check.js';
import { allowPrivilegeEscalation } from './allow-privilege-escalation.js';
import { appArmorProfile } from './app-armor.js';
import { capabilitiesBaseline, capabilitiesRestricted } from './capabilities.js';
import { hostNamespaces } from './host-namespaces.js';
import { hostPorts } from './host-ports.js';
import { privileged } from './privileged.js';
import { procMount } from './proc-mount.js';
import { runAsNonRoot, runAsUser } from './run-as.js';
import { seLinuxOptions } from './se-linux.js';
import { seccompProfileBaseline, seccompProfileRestricted } from './seccomp.js';
import { sysctls } from './sysctls.js';
import { hostPathVolumes, restrictedVolumes } from './volumes.js';
import { windowsHostProcess } from './windows-host-process.js';

/** The default checks (order does not matter: the evaluator orders them by ID). */
export const defaultChecks: readonly Check[] = [
  hostNamespaces,
  privileged,
  capabilitiesBaseline,
  hostPathVolumes,
  hostPorts,
  appArmorProfile,
  seLinuxOptions,
  procMount,
  seccompProfileBaseline,
  sysctls,
  windowsHostProcess,
  restrictedVolumes,
  allowPrivilegeEscalation,
  runAsNonRoot,
  runAsUser,
  seccompProfileRestricted,
  capabilitiesRestricted,
];
