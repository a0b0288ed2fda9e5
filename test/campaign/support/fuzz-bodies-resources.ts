/**
 * The resources the body fuzzer writes (ConfigMaps, Secrets, Pods, Deployments and a structural
 * custom resource, all in one namespace), valid objects of each, and reference checks of
 * kube-apiserver's metadata rules (names, generateName, labels, annotations) written from its
 * documented rules, independently of the server's code.
 */

/** The namespace every fuzzed object lives in. */
export const fuzzNamespace = 'fuzz';

/** One resource the fuzzer writes. */
export interface FuzzResource {
  readonly kind: string;
  readonly apiVersion: string;
  /** The collection path. */
  readonly path: string;
  /** The etcd key prefix of its objects (name appended). */
  readonly keyPrefix: string;
  /** A valid object's body but for metadata. */
  readonly body: () => Record<string, unknown>;
  /** Whether strategic merge patch applies (built-ins only). */
  readonly strategic: boolean;
  /** The names of the objects seeded for updates and patches. */
  readonly seeds: readonly string[];
}

const seeds = (prefix: string): string[] => [0, 1, 2].map((i) => `${prefix}-seed-${i}`);

/** The resources fuzzed. */
export const fuzzResources: readonly FuzzResource[] = [
  {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    path: `/api/v1/namespaces/${fuzzNamespace}/configmaps`,
    keyPrefix: `/registry/configmaps/${fuzzNamespace}/`,
    body: () => ({ data: { a: 'one', 'b.txt': 'two' } }),
    strategic: true,
    seeds: seeds('cm'),
  },
  {
    kind: 'Secret',
    apiVersion: 'v1',
    path: `/api/v1/namespaces/${fuzzNamespace}/secrets`,
    keyPrefix: `/registry/secrets/${fuzzNamespace}/`,
    body: () => ({ type: 'Opaque', data: { token: Buffer.from('s3cret').toString('base64') } }),
    strategic: true,
    seeds: seeds('secret'),
  },
  {
    kind: 'Pod',
    apiVersion: 'v1',
    path: `/api/v1/namespaces/${fuzzNamespace}/pods`,
    keyPrefix: `/registry/pods/${fuzzNamespace}/`,
    body: () => ({ spec: { containers: [{ name: 'c', image: 'busybox', env: [{ name: 'A', value: '1' }] }] } }),
    strategic: true,
    seeds: seeds('pod'),
  },
  {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    path: `/apis/apps/v1/namespaces/${fuzzNamespace}/deployments`,
    keyPrefix: `/registry/deployments/${fuzzNamespace}/`,
    body: () => ({
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'w' } },
        template: { metadata: { labels: { app: 'w' } }, spec: { containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 80 }] }] } },
      },
    }),
    strategic: true,
    seeds: seeds('deploy'),
  },
  {
    kind: 'Widget',
    apiVersion: 'example.com/v1',
    path: `/apis/example.com/v1/namespaces/${fuzzNamespace}/widgets`,
    keyPrefix: `/registry/example.com/widgets/${fuzzNamespace}/`,
    body: () => ({ spec: { color: 'red', size: 3, items: [{ name: 'x', value: 'y' }] } }),
    strategic: false,
    seeds: seeds('widget'),
  },
];

/** A valid object of r named name (or with generateName when name is undefined). */
export function validObject(r: FuzzResource, name: string, extraMeta: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: r.apiVersion, kind: r.kind, metadata: { name, ...extraMeta }, ...r.body() };
}

const dns1123Label = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const subdomainRe = new RegExp(`^${dns1123Label}(\\.${dns1123Label})*$`);
const qualifiedNamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** RFC 1123 subdomain: what kube requires of these resources' names. */
export function isDnsSubdomain(s: string): boolean {
  return s.length > 0 && s.length <= 253 && subdomainRe.test(s);
}

/** A metadata.name path segment the request path can carry (kube refuses '.', '..', '/' and '%'). */
export function isPathSafeName(s: string): boolean {
  return s !== '.' && s !== '..' && !/[/%]/.test(s);
}

/** Whether generateName g passes kube's checks: the prefix as a name (a trailing dash masked) and the name made from it. */
export function isValidGenerateName(g: string): boolean {
  const masked = g.length > 1 && g.endsWith('-') ? `${g.slice(0, -2)}a` : g;
  return isDnsSubdomain(masked) && isDnsSubdomain(`${g.slice(0, 58)}bcdfg`);
}

/** A label or annotation key: [prefix/]name, the prefix a subdomain, the name at most 63 characters. */
export function isQualifiedName(k: string): boolean {
  const parts = k.split('/');
  if (parts.length > 2) return false;
  const name = parts[parts.length - 1] ?? '';
  if (parts.length === 2 && !isDnsSubdomain(parts[0] ?? '')) return false;
  return name.length <= 63 && qualifiedNamePart.test(name);
}

/** A label value: empty or at most 63 characters of [-A-Za-z0-9_.], alphanumeric at both ends. */
export function isLabelValue(v: string): boolean {
  return v === '' || (v.length <= 63 && qualifiedNamePart.test(v));
}

/** kube's limit on the total size of an object's annotations, keys and values in UTF-8 bytes. */
export const totalAnnotationSizeLimitBytes = 256 * 1024;

/** Whether annotations pass kube's checks: qualified keys (case-insensitive) and at most 256 KiB in all. */
export function areValidAnnotations(a: Record<string, string>): boolean {
  let size = 0;
  for (const [k, v] of Object.entries(a)) {
    if (!isQualifiedName(k.toLowerCase())) return false;
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  return size <= totalAnnotationSizeLimitBytes;
}

/** Whether labels pass kube's checks. */
export function areValidLabels(l: Record<string, string>): boolean {
  return Object.entries(l).every(([k, v]) => isQualifiedName(k) && isLabelValue(v));
}
