/**
 * The node agent's gRPC client of a CRI v1 runtime (containerd's CRI plugin): RuntimeService and
 * ImageService over --container-runtime-endpoint (unix:///path or a bare socket path), each call
 * bounded by --runtime-request-timeout except the long-running ones (PullImage), as kubelet bounds
 * them. Calls reject with the gRPC error (code and details) so callers can report the runtime's
 * own message, as kubelet does (ErrImagePull carries it).
 */
import * as grpc from '@grpc/grpc-js';
import { criV1Services } from '../../../proto/cri/v1/load.js';
import type { ImageServiceApi, RuntimeServiceApi } from '../../../proto/cri/v1/types.js';

/** A CRI runtime's two services, promise-returning. */
export interface CriClient {
  readonly runtime: RuntimeServiceApi;
  readonly image: ImageServiceApi;
  /** The endpoint as given (for messages). */
  readonly endpoint: string;
  close(): void;
}

/** Methods that may run past --runtime-request-timeout (kubelet: pull, and the streaming ones). */
const longRunning = new Set(['PullImage']);

/** The grpc-js target of a CRI endpoint: unix:///run/x.sock, unix:/x.sock or /x.sock. */
export function grpcTarget(endpoint: string): string {
  if (endpoint.startsWith('unix://')) return `unix:${endpoint.slice('unix://'.length)}`;
  if (endpoint.startsWith('/')) return `unix:${endpoint}`;
  return endpoint;
}

function promisify<T extends object>(client: grpc.Client, timeoutMs: number): T {
  return new Proxy({} as T, {
    get(_target, method: string) {
      return (request: unknown) =>
        new Promise((resolve, reject) => {
          const fn = (client as unknown as Record<string, unknown>)[method];
          if (typeof fn !== 'function') {
            reject(new Error(`CRI method ${method} is unknown`));
            return;
          }
          const options: grpc.CallOptions = longRunning.has(method) || timeoutMs <= 0 ? {} : { deadline: Date.now() + timeoutMs };
          (fn as (...a: unknown[]) => void).call(client, request, new grpc.Metadata(), options, (err: grpc.ServiceError | null, res: unknown) => {
            if (err) reject(err);
            else resolve(res);
          });
        });
    },
  });
}

/** Connects (lazily, as gRPC does) to the runtime at endpoint; timeoutMs bounds each call. */
export function connectCri(endpoint: string, timeoutMs: number): CriClient {
  const { RuntimeService, ImageService } = criV1Services();
  const target = grpcTarget(endpoint);
  // Messages of a node with many containers exceed gRPC's 4 MiB default (kubelet allows 16 MiB).
  const options = { 'grpc.max_receive_message_length': 16 * 1024 * 1024 };
  const runtimeClient = new RuntimeService(target, grpc.credentials.createInsecure(), options);
  const imageClient = new ImageService(target, grpc.credentials.createInsecure(), options);
  return {
    endpoint,
    runtime: promisify<RuntimeServiceApi>(runtimeClient, timeoutMs),
    image: promisify<ImageServiceApi>(imageClient, timeoutMs),
    close() {
      runtimeClient.close();
      imageClient.close();
    },
  };
}

/** True for a gRPC error of the given status code name (e.g. 'NOT_FOUND'). */
export function isGrpcCode(err: unknown, code: keyof typeof grpc.status): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === grpc.status[code];
}
