/**
 * Connecting to the CRI runtime as kubelet does at start: a Version call that must answer with
 * runtime_api_version v1, or the start fails with kubelet's message naming the endpoint and the
 * gRPC error ("validate service connection: validate CRI v1 runtime API for endpoint "unix:///...":
 * rpc error: code = Unavailable desc = ...").
 */
import * as grpc from '@grpc/grpc-js';
import type { Logger } from '../../observability/logging.js';
import { connectCri, type CriClient } from './cri-client.js';

/** Go's codes.Code names by number, as a status error prints them. */
const goCodeNames = ['OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied', 'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated'];

/** A gRPC error as Go's status.Error prints it: "rpc error: code = X desc = ...". */
export function rpcErrorText(err: unknown): string {
  const e = err as Partial<grpc.ServiceError>;
  // grpc-js appends an empty "Resolution note: " where Go prints nothing.
  if (typeof e?.code === 'number') return `rpc error: code = ${goCodeNames[e.code] ?? `Code(${e.code})`} desc = ${(e.details ?? e.message ?? '').replace(/\.? Resolution note: ?$/, '')}`;
  return err instanceof Error ? err.message : String(err);
}

/** Connects to endpoint and validates it speaks CRI v1; closes and throws kubelet's message otherwise. */
export async function connectRuntime(endpoint: string, timeoutMs: number, log: Logger): Promise<CriClient> {
  const cri = connectCri(endpoint, timeoutMs);
  try {
    const version = await cri.runtime.Version({});
    if (version.runtime_api_version !== 'v1') throw new Error(`CRI v1 runtime API is not implemented for endpoint ${JSON.stringify(endpoint)}: runtime API version ${JSON.stringify(version.runtime_api_version ?? '')}`);
    log.info('Container runtime initialized', { containerRuntime: version.runtime_name, version: version.runtime_version, apiVersion: version.runtime_api_version });
    return cri;
  } catch (err) {
    cri.close();
    if ((err as { code?: unknown }).code === grpc.status.UNIMPLEMENTED) throw new Error(`validate service connection: CRI v1 runtime API is not implemented for endpoint ${JSON.stringify(endpoint)}: ${rpcErrorText(err)}`);
    if (typeof (err as { code?: unknown }).code === 'number') throw new Error(`validate service connection: validate CRI v1 runtime API for endpoint ${JSON.stringify(endpoint)}: ${rpcErrorText(err)}`);
    throw err;
  }
}
