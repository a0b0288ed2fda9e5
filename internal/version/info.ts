/**
 * The version this server reports (kube's component-base/version): /version, `--version` and
 * `--version=raw`. The git version may be overridden at start with `--version=vX.Y.Z...`
 * (kube's dynamic version), which must keep the built-in major, minor and patch numbers.
 */
import { kubernetesVersion } from '../../api/gen/resources.js';

/** The built-in git version, e.g. v1.33.0+capstan. */
export const defaultGitVersion = `v${kubernetesVersion}.0+capstan`;

/** kube's version.Info fields, in its order (the JSON names of /version). */
export interface VersionInfo {
  readonly major: string;
  readonly minor: string;
  readonly emulationMajor: string;
  readonly emulationMinor: string;
  readonly minCompatibilityMajor: string;
  readonly minCompatibilityMinor: string;
  readonly gitVersion: string;
  readonly gitCommit: string;
  readonly gitTreeState: string;
  readonly buildDate: string;
  readonly goVersion: string;
  readonly compiler: string;
  readonly platform: string;
}

/**
 * What the binary reports (kube's version.Get()): the build's fields, without the emulation and
 * compatibility versions, which only the running server's /version fills in.
 */
export function buildVersionInfo(gitVersion: string = defaultGitVersion): VersionInfo {
  const [major, minor] = kubernetesVersion.split('.') as [string, string];
  return {
    major,
    minor,
    emulationMajor: '',
    emulationMinor: '',
    minCompatibilityMajor: '',
    minCompatibilityMinor: '',
    gitVersion,
    gitCommit: process.env.CAPSTAN_GIT_COMMIT ?? 'unknown',
    gitTreeState: 'clean',
    buildDate: process.env.CAPSTAN_BUILD_DATE ?? '1970-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}

/** /version of a running server: the build's, with its emulation version (its own) and minimum compatibility version (one minor back). */
export function serverVersionInfo(gitVersion: string = defaultGitVersion): VersionInfo {
  const info = buildVersionInfo(gitVersion);
  return { ...info, emulationMajor: info.major, emulationMinor: info.minor, minCompatibilityMajor: info.major, minCompatibilityMinor: String(Number(info.minor) - 1) };
}

/** `--version=raw`'s text: Go's %#v of the version.Info struct. */
export function rawVersionText(info: VersionInfo): string {
  const fields = Object.entries(info).map(([k, v]) => `${k[0]?.toUpperCase()}${k.slice(1)}:${JSON.stringify(v)}`);
  return `version.Info{${fields.join(', ')}}`;
}
