/**
 * kube-apiserver 1.33's default-servicecidr controller: keeps the networking.k8s.io/v1
 * ServiceCIDR "kubernetes" holding --service-cluster-ip-range's CIDRs (created when missing,
 * upgraded from one family to two when the flag gained the second, never changed otherwise) and
 * sets its Ready condition when the object matches this server's flags; a mismatch is reported
 * once as an event. Runs at start and every 10 s, as kube's does.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import { parseServiceClusterIPRanges } from '../../registry/core/services/service-cidr.js';
import type { InServerController, InServerControllerDeps } from '../../server/in-server-controllers.js';
import { EventRecorder } from '../event-recorder.js';
import { ResourceClient } from '../resource-client.js';
import { periodic } from '../periodic.js';

/** kube's DefaultServiceCIDRName. */
export const defaultServiceCIDRName = 'kubernetes';
const controllerName = 'kubernetes.io/api-server-default-service-cidr-controller';
const ref = { kind: 'ServiceCIDR', apiVersion: 'networking.k8s.io/v1' };

const cidrsOf = (obj: KubeObject): string[] => ((obj.spec as { cidrs?: string[] } | undefined)?.cidrs ?? []).map(String);
/** A []string as Go's %v prints it. */
const goList = (a: string[]): string => `[${a.join(' ')}]`;
const same = (a: string[], b: string[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

/** One pass of the controller; state carries what was already reported. */
export async function syncDefaultServiceCIDR(
  deps: InServerControllerDeps,
  cidrs: string[],
  recorder: EventRecorder,
  state: { reportedMismatch: boolean; reportedNotReady: boolean },
): Promise<void> {
  const main = deps.storageOf('networking.k8s.io', 'servicecidrs');
  const status = deps.storageOf('networking.k8s.io', 'servicecidrs', 'status');
  if (!main || !status) return;
  const client = new ResourceClient(main, 'networking.k8s.io', 'servicecidrs');
  let current: KubeObject | undefined;
  try {
    current = await client.get(defaultServiceCIDRName);
  } catch (err) {
    if (!hasReason(err, 'NotFound')) throw err;
  }
  if (current) {
    const have = cidrsOf(current);
    if (cidrs.length === 2 && have.length === 1 && have[0] === cidrs[0]) {
      deps.log.info(`Updating default ServiceCIDR from single-stack (${goList(have)}) to dual-stack (${goList(cidrs)})`);
      try {
        await client.update(defaultServiceCIDRName, '', (obj) => ({ ...obj, spec: { ...(obj.spec as object), cidrs } }));
      } catch (err) {
        await recorder.event(current, ref, 'Warning', 'KubernetesDefaultServiceCIDRError', `The default ServiceCIDR can not be upgraded from ${cidrs[0]} to dual stack ${goList(cidrs)} : ${(err as Error).message}`);
      }
      return;
    }
  } else {
    try {
      current = await client.create({ apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: defaultServiceCIDRName }, spec: { cidrs } });
    } catch (err) {
      if (!hasReason(err, 'AlreadyExists')) {
        deps.log.info(`error creating default ServiceCIDR: ${(err as Error).message}`);
        await recorder.event({ metadata: { name: defaultServiceCIDRName } }, ref, 'Warning', 'KubernetesDefaultServiceCIDRError', 'The default ServiceCIDR can not be created');
        throw err;
      }
      return;
    }
  }
  if (current.metadata.deletionTimestamp) return;
  const sameConfig = same(cidrs, cidrsOf(current));
  const conditions = ((current.status as { conditions?: Array<Record<string, string>> } | undefined)?.conditions ?? []);
  const ready = conditions.find((c) => c.type === 'Ready');
  if (ready) {
    if (ready.status === 'True' && sameConfig) return;
    if (ready.status !== 'True') {
      if (!state.reportedNotReady) {
        deps.log.info(`default ServiceCIDR condition Ready is not True, please validate your cluster's network configuration for this ServiceCIDR status=${JSON.stringify(ready.status)} reason=${JSON.stringify(ready.reason ?? '')} message=${JSON.stringify(ready.message ?? '')}`);
        await recorder.event(current, ref, 'Warning', ready.reason ?? '', ready.message ?? '');
        state.reportedNotReady = true;
      }
      return;
    }
  }
  if (sameConfig) {
    deps.log.info('Setting default ServiceCIDR condition Ready to True');
    const statusClient = new ResourceClient(status, 'networking.k8s.io', 'servicecidrs');
    const condition = { type: 'Ready', status: 'True', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), reason: '', message: 'Kubernetes default Service CIDR is ready' };
    try {
      await statusClient.update(defaultServiceCIDRName, '', (obj) => ({ ...obj, status: { conditions: [...conditions.filter((c) => c.type !== 'Ready'), condition] } }));
    } catch (err) {
      deps.log.info(`error updating default ServiceCIDR status: ${(err as Error).message}`);
      await recorder.event(current, ref, 'Warning', 'KubernetesDefaultServiceCIDRError', 'The default ServiceCIDR Status can not be set to Ready=True');
    }
  } else if (!state.reportedMismatch) {
    deps.log.info(`inconsistent ServiceCIDR status, global configuration: ${goList(cidrsOf(current))} local configuration: ${goList(cidrs)}, configure the flags to match current ServiceCIDR or manually delete the default ServiceCIDR`);
    await recorder.event(current, ref, 'Warning', 'KubernetesDefaultServiceCIDRInconsistent', `The default ServiceCIDR ${goList(cidrsOf(current))} does not match the flag configurations ${goList(cidrs)}`);
    state.reportedMismatch = true;
  }
}

/** The in-server controller keeping the default ServiceCIDR. */
export const defaultServiceCIDRController: InServerController = {
  name: 'default-servicecidr',
  start(deps) {
    const cidrs = parseServiceClusterIPRanges(deps.options.serviceClusterIPRange).map((c) => c.cidr);
    const recorder = new EventRecorder(deps.storageOf('', 'events'), controllerName, deps.log);
    const state = { reportedMismatch: false, reportedNotReady: false };
    return periodic(() => syncDefaultServiceCIDR(deps, cidrs, recorder, state), 10_000, (err) => deps.log.warn(`syncing the default ServiceCIDR failed: ${err.message}`), deps.shutdown);
  },
};
