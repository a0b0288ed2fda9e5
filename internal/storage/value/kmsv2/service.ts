/**
 * What the KMS v2 transformer needs from a plugin (kube's k8s.io/kms/pkg/service.Service): the
 * three calls of the KMS v2 API. grpc-service.ts implements it over a unix socket.
 */

/** A Status answer. */
export interface KmsStatus {
  readonly version: string;
  readonly healthz: string;
  readonly keyID: string;
}

/** An Encrypt answer. */
export interface KmsEncryptResponse {
  readonly ciphertext: Buffer;
  readonly keyID: string;
  readonly annotations: ReadonlyMap<string, Buffer>;
}

/** A Decrypt request. */
export interface KmsDecryptRequest {
  readonly ciphertext: Buffer;
  readonly keyID: string;
  readonly annotations: ReadonlyMap<string, Buffer>;
}

/** A KMS v2 plugin. Every call rejects with an Error (kube's words) on failure or timeout. */
export interface KmsService {
  status(): Promise<KmsStatus>;
  encrypt(uid: string, plaintext: Buffer): Promise<KmsEncryptResponse>;
  decrypt(uid: string, request: KmsDecryptRequest): Promise<Buffer>;
  /** Closes the connection; calls after it fail. */
  close(): void;
}
