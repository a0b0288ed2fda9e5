/**
 * Loads proto/kms/v2/api.proto (the KMS v2 plugin API) for gRPC clients and servers. The .proto
 * file is read from the source tree at run time (tsc does not copy it to dist/): it is found by
 * walking up from this module's directory.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { findProtoFile } from '../../find-proto.js';

let cached: grpc.ServiceClientConstructor | undefined;

/** The path of api.proto; throws when the source tree does not have it. */
export function kmsV2ProtoPath(): string {
  return findProtoFile(import.meta.url, 'kms/v2/api.proto');
}

/**
 * The v2.KeyManagementService client constructor (its .service is the definition a server adds).
 * Fields keep their proto names (key_id), bytes are Buffers, maps are plain objects.
 */
export function kmsV2Service(): grpc.ServiceClientConstructor {
  if (cached) return cached;
  const def = protoLoader.loadSync(kmsV2ProtoPath(), { keepCase: true, longs: String, enums: String, defaults: true });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { v2: { KeyManagementService: grpc.ServiceClientConstructor } };
  cached = pkg.v2.KeyManagementService;
  return cached;
}
