/**
 * Loads proto/cri/v1/api.proto (the CRI v1 API, package runtime.v1) for the node agent's gRPC
 * clients of the container runtime and the test runtimes. The .proto file is read from the source
 * tree at run time (tsc does not copy it to dist/): it is found by walking up from this module.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { findProtoFile } from '../../find-proto.js';

/** The CRI v1 services. */
export interface CriServices {
  readonly RuntimeService: grpc.ServiceClientConstructor;
  readonly ImageService: grpc.ServiceClientConstructor;
}

let cached: CriServices | undefined;

/** The path of api.proto; throws when the source tree does not have it. */
export function criV1ProtoPath(): string {
  return findProtoFile(import.meta.url, 'cri/v1/api.proto');
}

/**
 * The runtime.v1 client constructors (each one's .service is the definition a server adds). Fields
 * keep their proto names (pod_sandbox_id: some CRI names are not snake_case), int64s are strings,
 * enums their names, bytes Buffers, maps plain objects.
 */
export function criV1Services(): CriServices {
  if (cached) return cached;
  const def = protoLoader.loadSync(criV1ProtoPath(), { keepCase: true, longs: String, enums: String, defaults: true });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { runtime: { v1: CriServices } };
  cached = { RuntimeService: pkg.runtime.v1.RuntimeService, ImageService: pkg.runtime.v1.ImageService };
  return cached;
}
