/**
 * A container's environment as kubelet's makeEnvironmentVariables builds it: envFrom sources first
 * (with their prefix), then env entries in order, each value expanded against the variables defined
 * so far; valueFrom reads fieldRef, resourceFieldRef, configMapKeyRef and secretKeyRef. A missing
 * non-optional ConfigMap, Secret or key fails the container with CreateContainerConfigError and
 * kubelet's message.
 */
import type { KeyValue } from '../../../proto/cri/v1/types.js';
import type { ConfigObjects, DataMap } from './config-objects.js';
import { expand } from './expansion.js';
import { fieldRefValue, type RuntimeFields } from './field-ref.js';
import { resourceFieldValue } from './resources.js';
import type { Container, Pod } from './types.js';

/** A container's configuration cannot be made (kubelet's CreateContainerConfigError). */
export class ContainerConfigError extends Error {}

/** Builds the env of c in pod; throws ContainerConfigError. */
export async function makeEnvironment(pod: Pod, c: Container, objects: ConfigObjects, rt: RuntimeFields, serviceEnv: ReadonlyMap<string, string> = new Map()): Promise<KeyValue[]> {
  const ns = pod.metadata.namespace ?? '';
  const vars = new Map<string, string>();
  const cache = new Map<string, DataMap | undefined>();
  async function fetch(kind: 'configmap' | 'secret', name: string): Promise<DataMap | undefined> {
    const key = `${kind}/${name}`;
    if (!cache.has(key)) {
      try {
        cache.set(key, kind === 'configmap' ? await objects.configMap(ns, name) : await objects.secret(ns, name));
      } catch (err) {
        throw new ContainerConfigError((err as Error).message);
      }
    }
    return cache.get(key);
  }
  for (const from of c.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    if (!ref) continue;
    const kind = from.configMapRef ? 'configmap' : 'secret';
    const data = await fetch(kind, ref.name ?? '');
    if (!data) {
      if (ref.optional) continue;
      throw new ContainerConfigError(`${kind} "${ref.name ?? ''}" not found`);
    }
    for (const [k, v] of data) {
      const name = (from.prefix ?? '') + k;
      // kube 1.33 relaxed env var names: any printable ASCII except '='.
      if (name.includes('=')) continue;
      vars.set(name, v.toString('utf8'));
    }
  }
  const lookup = (name: string): string | undefined => vars.get(name) ?? serviceEnv.get(name);
  for (const e of c.env ?? []) {
    if (e.value !== undefined || !e.valueFrom) {
      vars.set(e.name, expand(e.value ?? '', lookup));
      continue;
    }
    const vf = e.valueFrom;
    if (vf.fieldRef) {
      try {
        vars.set(e.name, fieldRefValue(pod, vf.fieldRef.fieldPath, rt));
      } catch (err) {
        throw new ContainerConfigError((err as Error).message);
      }
    } else if (vf.resourceFieldRef) {
      const target = vf.resourceFieldRef.containerName ? findContainer(pod, vf.resourceFieldRef.containerName) : c;
      try {
        vars.set(e.name, resourceFieldValue(vf.resourceFieldRef, target));
      } catch (err) {
        throw new ContainerConfigError((err as Error).message);
      }
    } else if (vf.configMapKeyRef || vf.secretKeyRef) {
      const ref = (vf.configMapKeyRef ?? vf.secretKeyRef)!;
      const kind = vf.configMapKeyRef ? 'configmap' : 'secret';
      const data = await fetch(kind, ref.name ?? '');
      if (!data) {
        if (ref.optional) continue;
        throw new ContainerConfigError(`${kind} "${ref.name ?? ''}" not found`);
      }
      const v = data.get(ref.key);
      if (v === undefined) {
        if (ref.optional) continue;
        throw new ContainerConfigError(`couldn't find key ${ref.key} in ${kind === 'configmap' ? 'ConfigMap' : 'Secret'} ${ns}/${ref.name ?? ''}`);
      }
      vars.set(e.name, v.toString('utf8'));
    }
  }
  // Service link variables come first; the container's own override them (kubelet merges so).
  const all = new Map([...serviceEnv, ...vars]);
  return [...all].map(([key, value]) => ({ key, value }));
}

/** A container (main, init or sidecar) of pod by name. */
export function findContainer(pod: Pod, name: string): Container | undefined {
  return [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].find((x) => x.name === name);
}
