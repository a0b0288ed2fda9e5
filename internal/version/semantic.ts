/**
 * kube's semantic version parsing (apimachinery util/version.ParseSemantic) and the check of a
 * dynamic version (component-base/version.ValidateDynamicVersion), with their exact error texts.
 */

/** A parsed semantic version. */
export interface SemanticVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly preRelease: string;
  readonly buildMetadata: string;
}

const versionMatch = /^\s*v?([0-9]+(?:\.[0-9]+)*)(.*)*$/;
const extraMatch = /^(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?\s*$/;
const goQuote = (s: string): string => JSON.stringify(s);

/** Parses "v1.33.0-rc.1+build" as kube's ParseSemantic does; throws its error text. */
export function parseSemantic(s: string): SemanticVersion {
  const parts = versionMatch.exec(s);
  if (!parts) throw new Error(`could not parse ${goQuote(s)} as version`);
  const numbers = parts[1] as string;
  const extra = parts[2] ?? '';
  const components = numbers.split('.');
  if (components.length !== 3) throw new Error(`illegal version string ${goQuote(s)}`);
  const nums = components.map((c) => {
    if (c.startsWith('0') && c !== '0') throw new Error(`illegal zero-prefixed version component ${goQuote(c)} in ${goQuote(s)}`);
    const n = Number(c);
    if (!Number.isSafeInteger(n)) throw new Error(`illegal non-numeric version component ${goQuote(c)} in ${goQuote(s)}: strconv.ParseUint: parsing ${goQuote(c)}: value out of range`);
    return n;
  });
  let preRelease = '';
  let buildMetadata = '';
  if (extra !== '') {
    const e = extraMatch.exec(extra);
    if (!e) throw new Error(`could not parse pre-release/metadata (${extra}) in version ${goQuote(s)}`);
    preRelease = e[1] ?? '';
    buildMetadata = e[2] ?? '';
    for (const c of preRelease.split('.')) {
      if (/^[0-9]+$/.test(c) && c.startsWith('0') && c !== '0') throw new Error(`illegal zero-prefixed version component ${goQuote(c)} in ${goQuote(s)}`);
    }
  }
  return { major: nums[0] as number, minor: nums[1] as number, patch: nums[2] as number, preRelease, buildMetadata };
}

/** kube's ValidateDynamicVersion: non-empty, semantic, and the same major/minor/patch as defaultVersion. */
export function validateDynamicVersion(dynamicVersion: string, defaultVersion: string): void {
  if (dynamicVersion.length === 0) throw new Error('version must not be empty');
  if (dynamicVersion === defaultVersion) return;
  const runtime = parseSemantic(dynamicVersion);
  const def = parseSemantic(defaultVersion);
  if (runtime.major !== def.major || runtime.minor !== def.minor || runtime.patch !== def.patch) {
    throw new Error(`version ${goQuote(dynamicVersion)} must match major/minor/patch of default version ${goQuote(defaultVersion)}`);
  }
}
