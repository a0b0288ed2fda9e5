/**
 * kube's --version flag (component-base/version/verflag): `--version` (or `--version=true`) prints
 * "Kubernetes <gitVersion>" and exits 0, `--version=raw` prints the whole version.Info struct and
 * exits 0, `--version=vX.Y.Z...` sets the git version the server reports and runs on (it must keep
 * the built-in major, minor and patch numbers), `--version=false` does nothing. Every occurrence
 * counts, in order, as pflag applies them; a bare `--version` never takes the next argument.
 */
import { defaultGitVersion } from '../../version/info.js';
import { validateDynamicVersion } from '../../version/semantic.js';
import { FlagError } from './flag-values.js';

/** kube's help text of --version. */
export const versionFlagHelp = '--version, --version=raw prints version information and quits; --version=vX.Y.Z... sets the reported version';

/** What the --version occurrences asked for. */
export interface VersionRequest {
  /** Print and exit ('true': "Kubernetes <gitVersion>", 'raw': the struct), or run ('false'). */
  readonly print: 'false' | 'true' | 'raw';
  /** The git version set with --version=vX.Y.Z (absent: the built-in one). */
  readonly gitVersion?: string;
}

const goBools: Readonly<Record<string, boolean>> = { '1': true, t: true, T: true, TRUE: true, true: true, True: true, '0': false, f: false, F: false, FALSE: false, false: false, False: false };

/** argv with each bare --version written --version=true (pflag's NoOptDefVal: it takes no next argument). */
export function normalizeVersionArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') return [...out, ...argv.slice(i)];
    out.push(a === '--version' ? '--version=true' : a);
  }
  return out;
}

/** Applies every --version=VALUE of argv (normalized) in order; throws FlagError as pflag reports an invalid value. */
export function parseVersionFlags(argv: readonly string[], builtIn: string = defaultGitVersion): VersionRequest {
  let print: VersionRequest['print'] = 'false';
  let gitVersion: string | undefined;
  for (const a of argv) {
    if (a === '--') break;
    if (!a.startsWith('--version=')) continue;
    const value = a.slice('--version='.length);
    const invalid = (why: string): FlagError => new FlagError(`invalid argument ${JSON.stringify(value)} for "--version" flag: ${why}`);
    if (value === 'raw') {
      print = 'raw';
    } else if (value.startsWith('v')) {
      try {
        validateDynamicVersion(value, builtIn);
      } catch (err) {
        throw invalid((err as Error).message);
      }
      gitVersion = value;
      // pflag keeps the value itself, which prints nothing.
      print = 'false';
    } else {
      const b = goBools[value];
      if (b === undefined) throw invalid(`strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
      print = b ? 'true' : 'false';
    }
  }
  return { print, ...(gitVersion !== undefined ? { gitVersion } : {}) };
}
