/**
 * The KMS v2 plugin client over gRPC on a unix socket (kube's kmsv2.NewGRPCService): every call
 * carries the provider's timeout as its deadline; errors read as Go's gRPC errors do
 * ("rpc error: code = Unavailable desc = ..."), so logs and Status messages match kube's.
 */
import * as grpc from '@grpc/grpc-js';
import { kmsV2Service } from '../../../../proto/kms/v2/load.js';
import type { KmsDecryptRequest, KmsEncryptResponse, KmsService, KmsStatus } from './service.js';

/** Go's names of the gRPC status codes. */
const codeNames = [
  'OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied',
  'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated',
];

/** An error of a gRPC call, worded as Go's status errors are. */
export function grpcErrorMessage(err: unknown): string {
  const e = err as Partial<grpc.ServiceError>;
  if (typeof e?.code === 'number') return `rpc error: code = ${codeNames[e.code] ?? `Code(${e.code})`} desc = ${e.details ?? e.message ?? ''}`;
  return err instanceof Error ? err.message : String(err);
}

/**
 * The gRPC target for a kms endpoint ("unix:///path/to/socket", or "unix:///@name" for a Linux
 * abstract socket); throws with kube's words for anything else.
 */
export function grpcTarget(endpoint: string): string {
  if (endpoint === '') throw new Error("remote KMS provider can't use empty string as endpoint");
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch (err) {
    throw new Error(`invalid endpoint ${JSON.stringify(endpoint)} for remote KMS provider, error: ${(err as Error).message}`);
  }
  if (u.protocol !== 'unix:') throw new Error(`unsupported scheme ${JSON.stringify(u.protocol.replace(/:$/, ''))} for remote KMS provider`);
  const path = decodeURIComponent(u.pathname);
  if (path.startsWith('/@')) return `unix-abstract:${path.slice(2)}`;
  return `unix://${path}`;
}

type Callback<T> = (err: grpc.ServiceError | null, res: T) => void;
type Method<Req, Res> = (req: Req, opts: grpc.CallOptions, cb: Callback<Res>) => void;

interface KmsClient extends grpc.Client {
  Status: Method<Record<string, never>, { version: string; healthz: string; key_id: string }>;
  Encrypt: Method<{ plaintext: Buffer; uid: string }, { ciphertext: Buffer; key_id: string; annotations: Record<string, Buffer> }>;
  Decrypt: Method<{ ciphertext: Buffer; uid: string; key_id: string; annotations: Record<string, Buffer> }, { plaintext: Buffer }>;
}

/** A KMS v2 plugin reached over gRPC; calls time out after timeoutMs. */
export class GrpcKmsService implements KmsService {
  private readonly client: KmsClient;

  constructor(
    endpoint: string,
    private readonly timeoutMs: number,
  ) {
    const Ctor = kmsV2Service();
    this.client = new Ctor(grpcTarget(endpoint), grpc.credentials.createInsecure(), {
      // A plugin that restarts is found again within seconds, not gRPC's two minutes.
      'grpc.max_reconnect_backoff_ms': 5000,
    }) as unknown as KmsClient;
  }

  private call<Req, Res>(method: Method<Req, Res>, req: Req): Promise<Res> {
    return new Promise((resolve, reject) => {
      method.call(this.client, req, { deadline: Date.now() + this.timeoutMs }, (err, res) => {
        if (err) reject(new Error(grpcErrorMessage(err)));
        else resolve(res);
      });
    });
  }

  async status(): Promise<KmsStatus> {
    const r = await this.call(this.client.Status, {});
    return { version: r.version, healthz: r.healthz, keyID: r.key_id };
  }

  async encrypt(uid: string, plaintext: Buffer): Promise<KmsEncryptResponse> {
    const r = await this.call(this.client.Encrypt, { plaintext, uid });
    return { ciphertext: r.ciphertext, keyID: r.key_id, annotations: new Map(Object.entries(r.annotations ?? {})) };
  }

  async decrypt(uid: string, request: KmsDecryptRequest): Promise<Buffer> {
    const r = await this.call(this.client.Decrypt, {
      ciphertext: request.ciphertext,
      uid,
      key_id: request.keyID,
      annotations: Object.fromEntries(request.annotations),
    });
    return r.plaintext;
  }

  close(): void {
    this.client.close();
  }
}
