/**
 * Starting one container as kubelet's startContainer does: ensure the image, build env and
 * config (CreateContainerConfigError on a missing ConfigMap/Secret/key), CreateContainer,
 * StartContainer, tell the probes, run postStart; each failure leaves the container waiting with
 * kubelet's reason and records kubelet's event.
 */
import type { PodSandboxConfig } from '../../../proto/cri/v1/types.js';
import { ImageError } from '../images/puller.js';
import { credentialsFor } from '../images/pull-secrets.js';
import { grpcMessage } from '../runtime/grpc-error.js';
import { containerConfig, type ContainerInputs } from './container-config.js';
import { makeEnvironment } from './env.js';
import { runHandler } from './hooks.js';
import { serviceEnv } from './service-env.js';
import type { DataMap } from './config-objects.js';
import type { PodState, WorkerDeps } from './worker-deps.js';
import type { Container, Pod } from './types.js';
import { containerFieldPath } from '../events/field-path.js';

/** Everything a start needs that the sync computed. */
export interface StartInputs {
  readonly sandboxId: string;
  readonly sandboxConfig: PodSandboxConfig;
  readonly podIPs: readonly string[];
  readonly hostIPs: readonly string[];
  readonly volumes: ReadonlyMap<string, string>;
  readonly etcHosts?: string;
}

async function pullSecrets(deps: WorkerDeps, pod: Pod): Promise<DataMap[]> {
  const out: DataMap[] = [];
  for (const ref of pod.spec.imagePullSecrets ?? []) {
    // kubelet goes on without a pull secret it cannot read (and logs it).
    const data = await deps.objects.secret(pod.metadata.namespace ?? '', ref.name ?? '').catch(() => undefined);
    if (data) out.push(data);
  }
  return out;
}

/** Starts c with restartCount; resolves true when it started (state.waiting is set otherwise). */
export async function startContainer(deps: WorkerDeps, state: PodState, pod: Pod, c: Container, restartCount: number, inp: StartInputs): Promise<boolean> {
  const event = (type: 'Normal' | 'Warning', reason: string, message: string): void => deps.ctx.events.event(pod, type, reason, message, containerFieldPath(pod, c.name));
  let imageRef: string;
  try {
    const creds = credentialsFor(c.image ?? '', await pullSecrets(deps, pod));
    imageRef = await deps.puller.ensure(pod, c, creds, inp.sandboxConfig, event);
  } catch (err) {
    if (!(err instanceof ImageError)) throw err;
    event('Warning', 'Failed', `Error: ${err.reason}`);
    state.waiting.set(c.name, { reason: err.reason, message: err.message });
    return false;
  }
  let config;
  try {
    const env = await makeEnvironment(pod, c, deps.objects, { podIPs: inp.podIPs, hostIPs: inp.hostIPs }, await serviceEnv(deps.ctx.client, pod));
    const inputs: ContainerInputs = { imageRef, restartCount, env, volumes: inp.volumes, podDir: deps.volumes.podDir(state.uid), ...(inp.etcHosts ? { etcHosts: inp.etcHosts } : {}) };
    config = await containerConfig(pod, c, inputs);
  } catch (err) {
    const message = (err as Error).message;
    event('Warning', 'Failed', `Error: ${message}`);
    state.waiting.set(c.name, { reason: 'CreateContainerConfigError', message });
    return false;
  }
  let id: string;
  try {
    const res = await deps.cri.runtime.CreateContainer({ pod_sandbox_id: inp.sandboxId, config: config.config, sandbox_config: inp.sandboxConfig });
    id = res.container_id ?? '';
  } catch (err) {
    event('Warning', 'Failed', `Error: ${grpcMessage(err)}`);
    state.waiting.set(c.name, { reason: 'CreateContainerError', message: grpcMessage(err) });
    return false;
  }
  if (config.terminationFile) state.terminationFiles.set(id, config.terminationFile);
  event('Normal', 'Created', `Created container: ${c.name}`);
  try {
    await deps.cri.runtime.StartContainer({ container_id: id });
  } catch (err) {
    event('Warning', 'Failed', `Error: ${grpcMessage(err)}`);
    state.waiting.set(c.name, { reason: 'RunContainerError', message: grpcMessage(err) });
    return false;
  }
  event('Normal', 'Started', `Started container ${c.name}`);
  state.waiting.delete(c.name);
  state.running.set(c.name, id);
  deps.probes.containerStarted(pod, c.name, id, Date.now());
  if (c.lifecycle?.postStart) {
    const failure = await runHandler(deps.cri, c.lifecycle.postStart, c, id, inp.podIPs[0], (pod.spec.terminationGracePeriodSeconds ?? 30) * 1000);
    if (failure) {
      event('Warning', 'FailedPostStartHook', failure);
      deps.probes.containerStopped(state.uid, c.name);
      await deps.cri.runtime.StopContainer({ container_id: id, timeout: pod.spec.terminationGracePeriodSeconds ?? 30 }).catch(() => undefined);
      state.waiting.set(c.name, { reason: 'PostStartHookError', message: failure });
      return false;
    }
  }
  return true;
}
