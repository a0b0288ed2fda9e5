/**
 * A CRI error as kubelet prints it: Go's gRPC status error text, "rpc error: code = NotFound desc =
 * <the runtime's message>", which kubelet puts in events and container status messages.
 */

const codeNames = ['OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied', 'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated'];

/** Go's status.Error(...).Error() text of a grpc-js error (other errors: their message). */
export function grpcErrorText(err: unknown): string {
  const e = err as { code?: unknown; details?: unknown; message?: unknown };
  if (typeof e?.code === 'number' && typeof e.details === 'string') return `rpc error: code = ${codeNames[e.code] ?? `Code(${e.code})`} desc = ${e.details}`;
  return String(e?.message ?? err);
}

/** Only the runtime's message (Go's status.Message()), as kubelet's "Error: ..." events carry it. */
export function grpcMessage(err: unknown): string {
  const e = err as { details?: unknown; message?: unknown };
  return typeof e?.details === 'string' ? e.details : String(e?.message ?? err);
}
