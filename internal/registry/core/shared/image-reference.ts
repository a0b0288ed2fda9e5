/**
 * The part of container image reference parsing (distribution/reference's ParseNormalizedNamed, as
 * the kubelet's parsers.ParseImageName uses it) that defaulting needs: the tag a reference names.
 */

const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const domainName = `${domainComponent}(?:\\.${domainComponent})*`;
const ipv6Address = '\\[(?:[a-fA-F0-9:]+)\\]';
const domainAndPort = `(?:${domainName}|${ipv6Address})(?::[0-9]+)?`;
const pathComponent = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const remoteName = `${pathComponent}(?:/${pathComponent})*`;
const namePattern = `(?:${domainAndPort}/)?${remoteName}`;
const tagPattern = '[\\w][\\w.-]{0,127}';
const digestPattern = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const referenceRegexp = new RegExp(`^(${namePattern})(?::(${tagPattern}))?(?:@(${digestPattern}))?$`);
const anchoredIdentifier = /^[a-f0-9]{64}$/;

/** The hex lengths of the digest algorithms a reference may use. */
const digestHexLengths: Readonly<Record<string, number>> = { sha256: 64, sha384: 96, sha512: 128 };

/** The longest repository name a reference may carry. */
const nameTotalLengthMax = 255;

/** splitDockerDomain: the registry host, or docker.io when the first component is not one. */
function splitDomain(name: string): { domain: string; remainder: string } {
  const i = name.indexOf('/');
  if (i === -1) return { domain: 'docker.io', remainder: name };
  const first = name.slice(0, i);
  if (!/[.:]/.test(first) && first !== 'localhost' && first.toLowerCase() === first) return { domain: 'docker.io', remainder: name };
  return { domain: first, remainder: name.slice(i + 1) };
}

/** A parsed image reference; undefined fields were not given. */
export interface ImageReference {
  readonly name: string;
  readonly tag?: string;
  readonly digest?: string;
}

/** Parses image the way ParseNormalizedNamed does, or returns undefined when it is not a valid reference. Never throws. */
export function parseImageReference(image: string): ImageReference | undefined {
  if (anchoredIdentifier.test(image)) return undefined;
  const { domain, remainder } = splitDomain(image);
  const tagSep = remainder.indexOf(':');
  const remote = tagSep > -1 ? remainder.slice(0, tagSep) : remainder;
  if (remote.toLowerCase() !== remote) return undefined;
  const m = referenceRegexp.exec(`${domain}/${remainder}`);
  if (!m) return undefined;
  const name = m[1] as string;
  if (name.length > nameTotalLengthMax) return undefined;
  const digest = m[3];
  if (digest !== undefined) {
    const [algorithm = '', hex = ''] = digest.split(':');
    if (digestHexLengths[algorithm] !== hex.length) return undefined;
  }
  return { name, ...(m[2] !== undefined ? { tag: m[2] } : {}), ...(digest !== undefined ? { digest } : {}) };
}

/**
 * The tag parsers.ParseImageName reports: the given tag, "latest" when neither a tag nor a digest
 * is given, and "" for a digest-only or unparsable reference.
 */
export function imageTag(image: string): string {
  const ref = parseImageReference(image);
  if (!ref) return '';
  if (ref.tag === undefined && ref.digest === undefined) return 'latest';
  return ref.tag ?? '';
}

/** kube's default imagePullPolicy for image: Always for a :latest (or untagged) image, else IfNotPresent. */
export function defaultImagePullPolicy(image: string): 'Always' | 'IfNotPresent' {
  return imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';
}
