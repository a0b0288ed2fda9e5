/**
 * The HTTP source (kubelet's --manifest-url / staticPodURL with --manifest-url-header): GET the
 * URL every --http-check-frequency (10 s client timeout, at most 10 MiB read, as kubelet's
 * sourceURL); a 200 answer holding one Pod, or a PodList (or a v1 List of Pods), replaces the
 * source's set. Unchanged data is not decoded again; an empty body yields an empty set; any other
 * failure (status, decoding, an invalid pod) is logged and keeps the previous set.
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeObject } from '../../../api/meta/types.js';
import type { AgentContext } from '../interface.js';
import type { PodSetListener, PodSource } from './interface.js';
import { decodeManifest } from './static-pod.js';

const maxConfigLength = 10 * 1024 * 1024;
const clientTimeoutMs = 10_000;

/** Fetches url with headers; resolves with the status line and (at most maxConfigLength of) the body. */
export function fetchManifest(url: string, headers: Readonly<Record<string, readonly string[]>>): Promise<{ code: number; status: string; body: Buffer }> {
  const target = new URL(url);
  const get = target.protocol === 'https:' ? https.get : http.get;
  const outgoing: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(headers)) outgoing[k] = [...v];
  return new Promise((resolve, reject) => {
    const req = get(target, { headers: outgoing, timeout: clientTimeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size >= maxConfigLength) return;
        chunks.push(c.subarray(0, maxConfigLength - size));
        size += c.length;
      });
      res.on('end', () => resolve({ code: res.statusCode ?? 0, status: `${res.statusCode} ${res.statusMessage ?? ''}`.trim(), body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`)));
    req.on('error', reject);
  });
}

/** Starts the HTTP source for url (ctx.config.staticPodURL). */
export function startHttpSource(ctx: AgentContext, url: string, listener: PodSetListener): PodSource {
  let stopped = false;
  let last: Buffer | undefined;
  let busy = false;
  const source = { name: 'http' as const, synced: false, stop };
  const emit = (pods: KubeObject[]): void => {
    source.synced = true;
    listener('http', pods);
  };

  const extract = async (): Promise<void> => {
    const res = await fetchManifest(url, ctx.config.staticPodURLHeader);
    if (stopped) return;
    if (res.code !== 200) throw new Error(`${url}: ${res.status}`);
    if (res.body.length === 0) {
      emit([]);
      throw new Error(`zero-length data received from ${url}`);
    }
    if (last && last.equals(res.body)) return;
    last = res.body;
    emit(decodeManifest(res.body.toString('utf8'), { kind: 'http', location: url, nodeName: ctx.nodeName }, true));
  };

  const poll = async (): Promise<void> => {
    if (busy || stopped) return;
    busy = true;
    try {
      await extract();
    } catch (err) {
      if (!stopped) ctx.log.error('Failed to read pod from URL', { url, err: (err as Error).message });
    } finally {
      busy = false;
    }
  };

  const timer = setInterval(() => void poll(), Math.max(100, ctx.config.httpCheckFrequencyMs));
  timer.unref();
  void poll();

  function stop(): void {
    stopped = true;
    clearInterval(timer);
  }
  return source;
}
