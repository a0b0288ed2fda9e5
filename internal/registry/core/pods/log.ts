/**
 * pods/log (kube's LogREST and LogLocation): PodLogOptions from the query, decoded and validated
 * (400 for a value that does not decode, 422 Invalid PodLogOptions), the container defaulted when
 * the pod has exactly one and checked otherwise (kube's texts), then the kubelet's
 * /containerLogs/<ns>/<pod>/<container> of the pod's node streamed back as text/plain (written as it
 * arrives, so a follow shows lines at once). A pod not bound to a node has no logs yet: an empty
 * answer, as kube gives. A kubelet error answer becomes the Status kube's response checker makes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'node:https';
import type { KubeObject } from '../../../../api/meta/types.js';
import { newBadRequest, newInternalError, newInvalid, newPathNotFound } from '../../../apierrors/factories.js';
import { StatusError, type StatusReason } from '../../../apierrors/status-error.js';
import type { KubeletClient } from '../../../kubeletclient/interface.js';
import { kubeletLogQuery, parsePodLogOptions, PodLogOptionsDecodeError, validatePodLogOptions, type PodLogOptions } from '../../../kubeletclient/pod-log-options.js';
import { describeKubeletError } from '../../../kubeletclient/errors.js';
import type { RequestContext } from '../../../request/context.js';
import type { ConnectHandler, RestStorage } from '../../interface.js';

type Obj = Record<string, unknown>;
const asArr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

/** kube's validateContainer: the container to read, defaulted when the pod has exactly one. */
export function logContainer(pod: KubeObject, container: string | undefined): string {
  const spec = (pod.spec ?? {}) as Obj;
  const name = String((pod.metadata as Obj | undefined)?.name ?? '');
  const containers = asArr(spec.containers);
  if (!container) {
    if (containers.length === 1) return String(containers[0]?.name ?? '');
    if (containers.length === 0) throw newBadRequest(`a container name must be specified for pod ${name}`);
    const all = [...asArr(spec.initContainers), ...containers, ...asArr(spec.ephemeralContainers)].map((c) => String(c.name ?? ''));
    throw newBadRequest(`a container name must be specified for pod ${name}, choose one of: [${all.join(' ')}]`);
  }
  const known = [...containers, ...asArr(spec.initContainers), ...asArr(spec.ephemeralContainers)].some((c) => c.name === container);
  if (!known) throw newBadRequest(`container ${container} is not valid for pod ${name}`);
  return container;
}

/** kube's GenericHttpResponseChecker for pods/log: the Status of a kubelet's error answer. */
export function kubeletAnswerError(code: number, body: string, podName: string): StatusError {
  if (code === 500) return newInternalError(body);
  if (code === 400) return newBadRequest(body);
  const known: Record<number, [StatusReason, string]> = {
    404: ['NotFound', 'the server could not find the requested resource'],
    401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
    403: ['Forbidden', body],
    405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    409: ['Conflict', 'the server reported a conflict'],
    422: ['Invalid', 'the server rejected our request due to an error in our request'],
    429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
    503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
    504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
  };
  const [reason, text] = known[code] ?? (code >= 500 ? ['InternalError', `an error on the server (${JSON.stringify(body)}) has prevented the request from succeeding`] : ['', `the server responded with the status code ${code} but did not return more information`]);
  return new StatusError(code, reason, `${text} ( pods/log ${podName})`, { name: podName, kind: 'pods/log', ...(body ? { causes: [{ reason: 'UnexpectedServerResponse', message: body }] } : {}) });
}

/** The pods/log storage: a GET whose answer the storage streams itself. */
export class PodLogStorage implements RestStorage {
  /** kube serves pods/log as a GET: no CONNECT admission. */
  readonly connectAdmission = false;

  constructor(
    private readonly pods: RestStorage,
    private readonly kubelets: () => KubeletClient | undefined,
  ) {}

  async connect(ctx: RequestContext, name: string, options: KubeObject): Promise<ConnectHandler> {
    if (typeof options.path === 'string' && options.path !== '' && options.path !== '/') throw newPathNotFound();
    return async (req, res) => {
      let opts: PodLogOptions;
      try {
        opts = parsePodLogOptions(new URL(req.url ?? '/', 'http://x').searchParams);
      } catch (err) {
        if (err instanceof PodLogOptionsDecodeError) throw newBadRequest(err.message);
        throw err;
      }
      const errs = validatePodLogOptions(opts);
      if (errs.length > 0) throw newInvalid('', 'PodLogOptions', name, errs.map((e) => ({ reason: e.reason, field: e.field, message: e.message, text: `${e.field}: ${e.message}` })));
      const pod = await (this.pods.get as NonNullable<RestStorage['get']>).call(this.pods, ctx, name, { resourceVersion: '' });
      const container = logContainer(pod, opts.container);
      const nodeName = String(((pod.spec ?? {}) as Obj).nodeName ?? '');
      if (nodeName === '') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end();
        return;
      }
      const kubelets = this.kubelets();
      if (!kubelets) throw newBadRequest('the API server has no kubelet client configured');
      const target = await kubelets.target(nodeName);
      const meta = (pod.metadata ?? {}) as Obj;
      const query = kubeletLogQuery(opts).toString();
      const path = `/containerLogs/${encodeURIComponent(String(meta.namespace))}/${encodeURIComponent(String(meta.name))}/${encodeURIComponent(container)}${query ? `?${query}` : ''}`;
      await streamFromKubelet(req, res, `${target.scheme}://${target.host}${path}`, opts.insecureSkipTLSVerifyBackend && target.insecureAgent ? target.insecureAgent : target.agent, target.timeoutMs, String(meta.name));
    };
  }
}

function streamFromKubelet(req: IncomingMessage, res: ServerResponse, url: string, agent: import('node:https').Agent, timeoutMs: number, podName: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let answered = false;
    const upstream = request(url, { method: 'GET', agent, headers: { accept: '*/*', 'user-agent': 'capstan-apiserver' } }, (answer) => {
      answered = true;
      clearTimeout(timer);
      const code = answer.statusCode ?? 502;
      if (code < 200 || code > 206) {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (c: Buffer) => {
          if (size < 50_000) chunks.push(c);
          size += c.length;
        });
        answer.on('end', () => reject(kubeletAnswerError(code, Buffer.concat(chunks).toString('utf8').slice(0, 50_000), podName)));
        answer.on('error', () => reject(kubeletAnswerError(code, '', podName)));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.flushHeaders();
      answer.pipe(res);
      answer.on('end', () => resolve());
      answer.on('error', () => {
        res.destroy();
        resolve();
      });
    });
    const timer = timeoutMs > 0 ? setTimeout(() => upstream.destroy(Object.assign(new Error('i/o timeout'), { code: 'ETIMEDOUT' })), timeoutMs) : undefined;
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (answered) {
        res.destroy();
        resolve();
        return;
      }
      reject(new StatusError(500, '', `Get "${url}": ${describeKubeletError(err, new URL(url).host)}`));
    });
    // A caller that goes away (kubectl logs -f interrupted) takes the kubelet request with it.
    res.on('close', () => {
      clearTimeout(timer);
      if (!res.writableFinished) upstream.destroy();
      resolve();
    });
    req.on('close', () => {
      if (!res.writableFinished && req.destroyed) upstream.destroy();
    });
    upstream.end();
  });
}
