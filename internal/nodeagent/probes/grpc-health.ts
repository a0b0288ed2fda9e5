/**
 * The grpc.health.v1 messages (HealthCheckRequest{string service = 1},
 * HealthCheckResponse{ServingStatus status = 1}) and the Health service's Check method, encoded by
 * hand: two one-field messages do not need a .proto loader. Servers in tests use the same
 * definition.
 */
import type * as grpc from '@grpc/grpc-js';

/** HealthCheckResponse.ServingStatus names by number. */
export const servingStatusNames = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

function readVarint(buf: Buffer, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  let i = at;
  for (; i < buf.length; i++) {
    const b = buf[i]!;
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if ((b & 0x80) === 0) return [value, i + 1];
  }
  throw new Error('truncated varint');
}

/** Encodes a message whose field 1 is a string (omitted when empty) or a varint (omitted when 0). */
function encodeField1(value: string | number): Buffer {
  if (typeof value === 'number') return Buffer.from(value === 0 ? [] : [0x08, ...varint(value)]);
  if (value === '') return Buffer.alloc(0);
  const bytes = Buffer.from(value, 'utf8');
  return Buffer.concat([Buffer.from([0x0a, ...varint(bytes.length)]), bytes]);
}

/** Reads field 1 of a message (string or varint), skipping unknown fields. */
function decodeField1(buf: Buffer): string | number | undefined {
  let at = 0;
  let found: string | number | undefined;
  while (at < buf.length) {
    const [tag, next] = readVarint(buf, at);
    at = next;
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (wire === 0) {
      const [v, after] = readVarint(buf, at);
      at = after;
      if (field === 1) found = v;
    } else if (wire === 2) {
      const [len, after] = readVarint(buf, at);
      if (field === 1) found = buf.subarray(after, after + len).toString('utf8');
      at = after + len;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
  return found;
}

/** HealthCheckRequest: the service to check ('' for the server as a whole). */
export interface HealthCheckRequest {
  service: string;
}
/** HealthCheckResponse: the ServingStatus number. */
export interface HealthCheckResponse {
  status: number;
}

/** The Check method's definition (path and codecs), for grpc-js clients and servers. */
export const healthCheckMethod = {
  path: '/grpc.health.v1.Health/Check',
  requestStream: false,
  responseStream: false,
  requestSerialize: (req: HealthCheckRequest): Buffer => encodeField1(req.service),
  requestDeserialize: (buf: Buffer): HealthCheckRequest => ({ service: String(decodeField1(buf) ?? '') }),
  responseSerialize: (res: HealthCheckResponse): Buffer => encodeField1(res.status),
  responseDeserialize: (buf: Buffer): HealthCheckResponse => ({ status: Number(decodeField1(buf) ?? 0) }),
} satisfies grpc.MethodDefinition<HealthCheckRequest, HealthCheckResponse>;

/** The grpc.health.v1.Health service definition (Check only). */
export const healthServiceDefinition: grpc.ServiceDefinition = { Check: healthCheckMethod };
