/**
 * The grpc prober (kubelet's pkg/probe/grpc): connect (blocking, within the timeout, insecure,
 * User-Agent kube-probe/1.33) and call grpc.health.v1.Health/Check for the service name; SERVING
 * succeeds ("service healthy"), every other answer or error fails with kubelet's texts.
 */
import * as grpc from '@grpc/grpc-js';
import { healthCheckMethod, servingStatusNames, type HealthCheckResponse } from './grpc-health.js';
import { probeUserAgent } from './http-probe.js';
import type { ProbeOutcome } from './interface.js';
import { joinHostPort } from './tcp-probe.js';

const goCodeNames = ['OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied', 'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated'];

/** A whole-second duration as Go prints it (1s, 1m0s, 1h0m0s). */
export function goDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

/** Runs one gRPC health probe. */
export function grpcProbe(host: string, port: number, service: string, timeoutMs: number): Promise<ProbeOutcome> {
  const addr = joinHostPort(host, port);
  const deadline = Date.now() + timeoutMs;
  const client = new grpc.Client(addr, grpc.credentials.createInsecure(), { 'grpc.primary_user_agent': probeUserAgent });
  return new Promise<ProbeOutcome>((resolve) => {
    client.waitForReady(deadline, (connectErr) => {
      if (connectErr) {
        resolve({ result: 'failure', output: `timeout: failed to connect service "${addr}" within ${goDuration(timeoutMs)}: context deadline exceeded` });
        return;
      }
      client.makeUnaryRequest(
        healthCheckMethod.path,
        healthCheckMethod.requestSerialize,
        healthCheckMethod.responseDeserialize,
        { service },
        new grpc.Metadata(),
        { deadline },
        (err: grpc.ServiceError | null, res?: HealthCheckResponse) => {
          if (err) {
            if (err.code === grpc.status.UNIMPLEMENTED) {
              resolve({ result: 'failure', output: `error: this server does not implement the grpc health protocol (grpc.health.v1.Health): ${err.details}` });
            } else if (err.code === grpc.status.DEADLINE_EXCEEDED) {
              resolve({ result: 'failure', output: `timeout: health rpc did not complete within ${goDuration(timeoutMs)}` });
            } else {
              resolve({ result: 'failure', output: `error: health rpc probe failed: rpc error: code = ${goCodeNames[err.code] ?? err.code} desc = ${err.details}` });
            }
            return;
          }
          const status = res?.status ?? 0;
          if (status !== 1) resolve({ result: 'failure', output: `service unhealthy (responded with "${servingStatusNames[status] ?? String(status)}")` });
          else resolve({ result: 'success', output: 'service healthy' });
        },
      );
    });
  }).finally(() => client.close());
}
