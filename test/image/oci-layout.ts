/**
 * Reading the image that hack/build-image.sh wrote (its OCI layout: index -> manifest -> config),
 * and naming the piece of the machine that stopped `ctr run` from its output.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The parts of an OCI image config the test checks. */
export interface ImageConfig {
  readonly os: string;
  readonly architecture: string;
  readonly config: {
    readonly Entrypoint: string[];
    readonly User?: string;
    readonly ExposedPorts?: Record<string, unknown>;
    readonly Labels?: Record<string, string>;
  };
}

/** An image reference split as ctr names an imported archive's image (`--base-name name` + tag). */
export interface ImageRef {
  readonly name: string;
  readonly tag: string;
  readonly image: string;
}

interface Descriptor {
  readonly digest: string;
  readonly annotations?: Record<string, string>;
}

async function blob<T>(layout: string, digest: string): Promise<T> {
  const [algorithm, hex] = digest.split(':');
  return JSON.parse(await readFile(join(layout, 'blobs', algorithm ?? '', hex ?? ''), 'utf8')) as T;
}

/** Reads the config of image `name:tag` from the OCI layout at layout; throws when the tag is absent. */
export async function readImageConfig(layout: string, image: string): Promise<{ ref: ImageRef; config: ImageConfig }> {
  const colon = image.lastIndexOf(':');
  const ref = { name: image.slice(0, colon), tag: image.slice(colon + 1), image };
  const index = JSON.parse(await readFile(join(layout, 'index.json'), 'utf8')) as { manifests: Descriptor[] };
  const entry = index.manifests.find((m) => m.annotations?.['org.opencontainers.image.ref.name'] === ref.tag);
  if (!entry) throw new Error(`${layout}/index.json has no manifest tagged ${ref.tag}`);
  const manifest = await blob<{ config: Descriptor }>(layout, entry.digest);
  return { ref, config: await blob<ImageConfig>(layout, manifest.config.digest) };
}

const causes: ReadonlyArray<readonly [RegExp, string]> = [
  [/cgroup/i, 'cgroups: runc could not create or join a cgroup for the container (no writable cgroup hierarchy in this sandbox)'],
  [/overlay/i, 'overlay mounts: the kernel or sandbox refused the overlayfs mount of the image layers (set CONTAINERD_ADDRESS to a containerd using the native snapshotter)'],
  [/runc.*(not found|no such file)/i, 'runc: the OCI runtime binary is not installed (hack/install-image-tools.sh installs Debian\'s runc)'],
  [/unshare|namespace|clone.*not permitted/i, 'namespaces: the sandbox forbids creating the mount/PID/IPC namespaces runc needs'],
  [/pivot_root/i, 'pivot_root: the sandbox forbids changing the root filesystem'],
  [/permission denied|operation not permitted/i, 'privileges: a kernel operation runc needs was refused (not root, or a seccomp/LSM policy in this sandbox)'],
];

/** A failure message for a `ctr run` that exited early: the missing piece when it is recognisable, and the output. */
export function diagnoseRunFailure(code: number, output: string): string {
  const cause = causes.find(([pattern]) => pattern.test(output));
  const piece = cause ? `missing piece: ${cause[1]}` : 'the container exited before /readyz answered';
  return `ctr run exited with code ${code}; ${piece}. Its output:\n${output}`;
}
