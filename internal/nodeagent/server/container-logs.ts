/**
 * GET /containerLogs/{namespace}/{pod}/{container} (kubelet's getContainerLogs and
 * GetKubeletContainerLogs): PodLogOptions from the query (the legacy "tail" too; "all" meaning every
 * line), the pod and container the workers know, the container instance its status names (the
 * current one, or with previous the last terminated one), and its CRI log file read as kubelet
 * reads it. Errors are kubelet's plain texts (400 for a container that cannot give logs).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../../api/meta/types.js';
import { parsePodLogOptions, PodLogOptionsDecodeError, validatePodLogOptions } from '../../kubeletclient/pod-log-options.js';
import type { PodSyncHandler } from '../interface.js';
import { readContainerLog } from '../logs/read-logs.js';
import type { CriClient } from '../runtime/cri-client.js';
import { writeText } from './respond.js';

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const asArr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

/** Whether the pod's spec has a container (regular, init or ephemeral) of that name. */
function hasContainer(pod: KubeObject, name: string): boolean {
  const spec = asObj(pod.spec);
  return [...asArr(spec.containers), ...asArr(spec.initContainers), ...asArr(spec.ephemeralContainers)].some((c) => c.name === name);
}

/** The CRI id in a status's "containerd://<id>". */
function criId(containerID: unknown): string {
  const s = typeof containerID === 'string' ? containerID : '';
  const i = s.indexOf('://');
  return i >= 0 ? s.slice(i + 3) : s;
}

/** kubelet's validateContainerLogStatus: the CRI id to read, or the error text. */
export function containerToRead(podName: string, status: Obj, name: string, previous: boolean): { id: string } | { error: string } {
  const all = [...asArr(status.containerStatuses), ...asArr(status.initContainerStatuses), ...asArr(status.ephemeralContainerStatuses)];
  const cs = all.find((c) => c.name === name);
  if (!cs) return { error: `container "${name}" in pod "${podName}" is not available` };
  const last = asObj(asObj(cs.lastState).terminated);
  const state = asObj(cs.state);
  const waiting = state.waiting ? asObj(state.waiting) : undefined;
  const terminated = state.terminated ? asObj(state.terminated) : undefined;
  const hasLast = cs.lastState !== undefined && asObj(cs.lastState).terminated !== undefined;
  if (previous) {
    if (!hasLast || !last.containerID) return { error: `previous terminated container "${name}" in pod "${podName}" not found` };
    return { id: criId(last.containerID) };
  }
  if (state.running !== undefined) return { id: criId(cs.containerID) };
  if (terminated) {
    if (terminated.containerID) return { id: criId(terminated.containerID) };
    if (hasLast && last.containerID) return { id: criId(last.containerID) };
    return { error: `container "${name}" in pod "${podName}" is terminated` };
  }
  if (hasLast) {
    if (!last.containerID) return { error: `container "${name}" in pod "${podName}" is terminated` };
    return { id: criId(last.containerID) };
  }
  if (waiting) {
    const reason = String(waiting.reason ?? '');
    if (reason === 'ErrImagePull') return { error: `container "${name}" in pod "${podName}" is waiting to start: image can't be pulled` };
    if (reason === 'ImagePullBackOff') return { error: `container "${name}" in pod "${podName}" is waiting to start: trying and failing to pull image` };
    return { error: `container "${name}" in pod "${podName}" is waiting to start: ${reason}` };
  }
  return { error: `container "${name}" in pod "${podName}" is waiting to start - no logs yet` };
}

/** The pod's latest status: the workers' computed one, else the one it came with. */
function statusOf(pods: PodSyncHandler, pod: KubeObject): Obj {
  const uid = (pod.metadata as Obj | undefined)?.uid;
  const running = pods.runningPods().find((p) => (p.metadata as Obj | undefined)?.uid === uid);
  return asObj(running?.status ?? pod.status);
}

/** Serves one /containerLogs request. */
export async function serveContainerLogs(req: IncomingMessage, res: ServerResponse, url: URL, deps: { pods: PodSyncHandler; cri?: CriClient }): Promise<void> {
  const parts = url.pathname.split('/').slice(2).map(decodeURIComponent);
  const [namespace = '', podName = '', container = ''] = parts;
  if (podName === '') return writeText(res, 400, '{"message": "Missing podID."}');
  if (container === '') return writeText(res, 400, '{"message": "Missing container name."}');
  if (namespace === '') return writeText(res, 400, '{"message": "Missing podNamespace."}');
  const query = new URLSearchParams(url.search);
  const tail = query.get('tail');
  if (tail) {
    query.delete('tailLines');
    if (tail !== 'all') query.set('tailLines', tail);
  }
  let opts;
  try {
    opts = parsePodLogOptions(query);
  } catch (err) {
    if (err instanceof PodLogOptionsDecodeError) return writeText(res, 400, '{"message": "Unable to decode query."}');
    throw err;
  }
  if (validatePodLogOptions({ ...opts, stream: undefined }).length > 0) return writeText(res, 422, '{"message": "Invalid request."}');
  const pod = deps.pods.findPod(namespace, podName);
  if (!pod) return writeText(res, 404, `pod "${podName}" does not exist`);
  if (!hasContainer(pod, container)) return writeText(res, 404, `container "${container}" not found in pod "${podName}"`);
  const chosen = containerToRead(podName, statusOf(deps.pods, pod), container, opts.previous);
  let id: string;
  if ('error' in chosen) {
    // A status not written yet: the workers still know the running instance.
    const current = opts.previous ? undefined : deps.pods.containerId(String((pod.metadata as Obj | undefined)?.uid ?? ''), container);
    if (!current) return writeText(res, 400, chosen.error);
    id = current;
  } else id = chosen.id;
  if (!deps.cri) return writeText(res, 400, `container "${container}" in pod "${podName}" has no runtime to read logs from`);
  let logPath: string;
  try {
    const st = await deps.cri.runtime.ContainerStatus({ container_id: id });
    logPath = st.status?.log_path ?? '';
  } catch (err) {
    return writeText(res, 400, `failed to get container status ${JSON.stringify(id)}: ${(err as Error).message}`);
  }
  if (!logPath) return writeText(res, 400, `container "${container}" in pod "${podName}" has no log file`);
  const cri = deps.cri;
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  let started = false;
  const start = (): void => {
    if (started) return;
    started = true;
    res.writeHead(200, { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' });
    res.flushHeaders();
  };
  try {
    if (opts.follow) start();
    await readContainerLog(
      logPath,
      { follow: opts.follow, timestamps: opts.timestamps, ...(opts.tailLines !== undefined ? { tailLines: opts.tailLines } : {}), ...(opts.limitBytes !== undefined ? { limitBytes: opts.limitBytes } : {}), ...(opts.sinceSeconds !== undefined ? { sinceMs: Date.now() - opts.sinceSeconds * 1000 } : opts.sinceTimeMs !== undefined ? { sinceMs: opts.sinceTimeMs } : {}) },
      {
        write(chunk) {
          start();
          if (res.destroyed) return;
          if (!res.write(chunk)) return new Promise<void>((resolve) => {
            res.once('drain', resolve);
            res.once('close', resolve);
          });
        },
      },
      {
        signal: abort.signal,
        async isRunning() {
          const st = await cri.runtime.ContainerStatus({ container_id: id }).catch(() => undefined);
          return st?.status?.state === 'CONTAINER_RUNNING';
        },
      },
    );
  } catch (err) {
    if (!started) return writeText(res, 400, `failed to read log file ${JSON.stringify(logPath)}: ${(err as Error).message}`);
  }
  start();
  res.end();
}
