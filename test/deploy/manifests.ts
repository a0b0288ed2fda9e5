/**
 * Test support for deploy/: reads the compose file and the static-pod manifests, maps the paths a
 * container sees back to the host files behind its mounts (the repository, or what the certificate
 * script wrote), and checks Capstan's flags with its own parser.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { parseFlags } from '../../internal/server/options/flags.js';

/** The repository's root (tests run from dist/test/deploy). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const deployDir = join(repoRoot, 'deploy');
export const composeFile = join(deployDir, 'compose', 'compose.yaml');
export const kubernetesDir = join(deployDir, 'kubernetes');

/** The version the image is tagged with. */
export const packageVersion: string = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version;

/** A compose service, as far as the tests read it. */
export interface ComposeService {
  image: string;
  entrypoint?: string[];
  command: string[];
  user?: string;
  hostname?: string;
  volumes?: string[];
  networks?: Record<string, { ipv4_address?: string }>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
}

/** The compose file, anchors and merge keys resolved as docker compose resolves them. */
export interface ComposeFile {
  name: string;
  services: Record<string, ComposeService>;
  networks: Record<string, { ipam: { config: { subnet: string }[] } }>;
  volumes: Record<string, unknown>;
}

/** Parses deploy/compose/compose.yaml. */
export function loadCompose(): ComposeFile {
  return parse(readFileSync(composeFile, 'utf8'), { merge: true }) as ComposeFile;
}

/** One mount: what the container sees at target comes from source on the host. */
export interface Mount {
  readonly source: string;
  readonly target: string;
  readonly readOnly: boolean;
  /** A named volume rather than a host path. */
  readonly named: boolean;
}

/** The mounts of a compose service (short syntax), host paths resolved against the compose file's folder. */
export function composeMounts(svc: ComposeService): Mount[] {
  return (svc.volumes ?? []).map((v) => {
    const [source, target, mode] = v.split(':') as [string, string, string | undefined];
    const named = !source.startsWith('.') && !source.startsWith('/');
    return { source: named ? source : resolve(dirname(composeFile), source), target, readOnly: mode === 'ro', named };
  });
}

/** A static pod, as far as the tests read it. */
export interface StaticPod {
  file: string;
  metadata: { name: string; namespace: string; labels: Record<string, string>; annotations?: Record<string, string> };
  spec: {
    hostNetwork?: boolean;
    containers: {
      name: string;
      image: string;
      command?: string[];
      args?: string[];
      livenessProbe?: Probe;
      readinessProbe?: Probe;
      startupProbe?: Probe;
      volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
    }[];
    volumes: { name: string; hostPath: { path: string; type?: string } }[];
  };
}

/** A probe of a static pod. */
export interface Probe {
  httpGet: { host: string; path: string; port: number; scheme: string };
  failureThreshold: number;
  periodSeconds: number;
  timeoutSeconds: number;
  initialDelaySeconds?: number;
}

/** Every manifest under deploy/kubernetes, by node folder (cp-1, ...). */
export function loadStaticPods(): Map<string, StaticPod[]> {
  const nodes = new Map<string, StaticPod[]>();
  for (const node of readdirSync(kubernetesDir).sort()) {
    const dir = join(kubernetesDir, node);
    if (!statSync(dir).isDirectory()) continue;
    const pods: StaticPod[] = [];
    for (const f of readdirSync(dir).sort()) {
      if (!f.endsWith('.yaml')) continue;
      for (const doc of parseAllDocuments(readFileSync(join(dir, f), 'utf8'))) pods.push({ ...(doc.toJS() as Omit<StaticPod, 'file'>), file: join(node, f) });
    }
    nodes.set(node, pods);
  }
  return nodes;
}

/** The host path behind the container path p, through the longest mount that covers it. */
export function hostPathOf(mounts: readonly Mount[], p: string): { mount: Mount; path: string } | undefined {
  let best: Mount | undefined;
  for (const m of mounts) if ((p === m.target || p.startsWith(`${m.target}/`)) && (!best || m.target.length > best.target.length)) best = m;
  return best ? { mount: best, path: best.source + p.slice(best.target.length) } : undefined;
}

/** The name of a --flag=value argument. */
export function flagName(arg: string): string {
  return arg.replace(/^--?/, '').split('=')[0] as string;
}

/** The value of --name in args (the last one, as pflag keeps). */
export function flagValue(args: readonly string[], name: string): string | undefined {
  let v: string | undefined;
  for (const a of args) if (a.startsWith(`--${name}=`)) v = a.slice(name.length + 3);
  return v;
}

/**
 * Feeds args to Capstan's flag parser with every absolute path replaced by what map returns for it
 * (the host file behind the mount), so that validation that reads files reads the real ones.
 * Returns the parser's error text, or undefined when the flags are accepted.
 */
export function capstanFlagErrors(args: readonly string[], map: (path: string) => string): string | undefined {
  const mapped = args.map((a) => {
    const eq = a.indexOf('=');
    if (eq < 0) return a;
    const value = a.slice(eq + 1);
    return value.startsWith('/') ? `${a.slice(0, eq + 1)}${map(value)}` : a;
  });
  const parsed = parseFlags(mapped, 'test');
  return parsed.kind === 'run' ? undefined : `${parsed.stderr ?? ''}${parsed.stdout ?? ''}`.trim() || `exit ${parsed.code}`;
}

/** Whether a path exists on the host. */
export function exists(path: string): boolean {
  return existsSync(path);
}
