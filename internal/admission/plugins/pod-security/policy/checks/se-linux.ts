/**
 * Baseline: SELinux options (seLinuxOptions): the type must be one of the container types (v1.0;
 * container_engine_t from v1.31), and user and role may not be set.
 */
import { allowed, type Check, type CheckPodFn } from '../check.js';
import { containersPhrase, joinQuote, pluralize, sortedList, visitContainers } from '../helpers.js';
import type { SELinuxOptions } from '../../pod-types.js';

function seLinuxOptionsCheck(allowedTypes: ReadonlySet<string>): CheckPodFn {
  return (_meta, spec) => {
    const setters: string[] = [];
    const badTypes = new Set<string>();
    let setUser = false;
    let setRole = false;
    const valid = (o: SELinuxOptions): boolean => {
      let ok = true;
      const type = o.type ?? '';
      if (!allowedTypes.has(type)) {
        ok = false;
        badTypes.add(type);
      }
      if (o.user) {
        ok = false;
        setUser = true;
      }
      if (o.role) {
        ok = false;
        setRole = true;
      }
      return ok;
    };
    const podOptions = spec.securityContext?.seLinuxOptions;
    if (podOptions && !valid(podOptions)) setters.push('pod');
    const bad: string[] = [];
    visitContainers(spec, (c) => {
      const o = c.securityContext?.seLinuxOptions;
      if (o && !valid(o)) bad.push(c.name ?? '');
    });
    if (bad.length > 0) setters.push(containersPhrase(bad));
    if (setters.length === 0) return allowed;
    const data: string[] = [];
    if (badTypes.size > 0) data.push(`${pluralize('type', 'types', badTypes.size)} ${joinQuote(sortedList(badTypes))}`);
    if (setUser) data.push('user may not be set');
    if (setRole) data.push('role may not be set');
    return { allowed: false, reason: 'seLinuxOptions', detail: `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}` };
  };
}

const typesV1Dot0 = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const typesV1Dot31 = new Set([...typesV1Dot0, 'container_engine_t']);

/** The seLinuxOptions check. */
export const seLinuxOptions: Check = {
  id: 'seLinuxOptions',
  level: 'baseline',
  versions: [
    { minimumMinor: 0, checkPod: seLinuxOptionsCheck(typesV1Dot0) },
    { minimumMinor: 31, checkPod: seLinuxOptionsCheck(typesV1Dot31) },
  ],
};
