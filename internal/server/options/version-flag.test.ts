import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildVersionInfo, rawVersionText, serverVersionInfo } from '../../version/info.js';
import { parseSemantic } from '../../version/semantic.js';
import { parseFlags } from './flags.js';

const run = (...args: string[]) => parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...args], 'Kubernetes v1.33.0+capstan');

describe('--version (kube\'s verflag)', () => {
  it('prints "Kubernetes <gitVersion>" for --version and --version=true, and runs on for --version=false', () => {
    assert.deepEqual(run('--version'), { kind: 'exit', code: 0, stdout: 'Kubernetes v1.33.0+capstan\n' });
    assert.deepEqual(run('--version=true'), { kind: 'exit', code: 0, stdout: 'Kubernetes v1.33.0+capstan\n' });
    assert.deepEqual(run('--version=T'), { kind: 'exit', code: 0, stdout: 'Kubernetes v1.33.0+capstan\n' });
    assert.equal(run('--version=false').kind, 'run');
    // A bare --version takes no value: the next flag is a flag of its own.
    assert.equal(run('--version', '--secure-port=7443').kind, 'exit');
  });

  it('prints the whole version.Info struct for --version=raw', () => {
    const r = run('--version=raw');
    assert.equal(r.kind, 'exit');
    if (r.kind !== 'exit') return;
    assert.equal(r.code, 0);
    assert.match(
      r.stdout ?? '',
      /^version\.Info\{Major:"1", Minor:"33", EmulationMajor:"", EmulationMinor:"", MinCompatibilityMajor:"", MinCompatibilityMinor:"", GitVersion:"v1\.33\.0\+capstan", GitCommit:"[^"]*", GitTreeState:"clean", BuildDate:"[^"]*", GoVersion:"node[^"]+", Compiler:"tsc", Platform:"[a-z0-9]+\/[a-z0-9]+"\}\n$/,
    );
  });

  it('sets the reported git version with --version=vX.Y.Z... and keeps running', () => {
    const r = run('--version=v1.33.0-custom.1+build.7');
    assert.equal(r.kind, 'run');
    if (r.kind === 'run') assert.equal(r.options.gitVersion, 'v1.33.0-custom.1+build.7');
    assert.deepEqual(run('--version=v1.33.0-custom', '--version'), { kind: 'exit', code: 0, stdout: 'Kubernetes v1.33.0-custom\n' });
    const raw = run('--version=v1.33.0', '--version=raw');
    assert.match(raw.kind === 'exit' ? (raw.stdout ?? '') : '', /GitVersion:"v1\.33\.0"/);
    assert.equal(serverVersionInfo('v1.33.0-x').gitVersion, 'v1.33.0-x');
    assert.deepEqual([serverVersionInfo().emulationMinor, serverVersionInfo().minCompatibilityMinor], ['33', '32']);
  });

  it('refuses what kube refuses, with its messages', () => {
    const err = (...args: string[]) => {
      const r = run(...args);
      assert.equal(r.kind, 'exit');
      return r.kind === 'exit' ? [r.code, r.stderr] : [];
    };
    assert.deepEqual(err('--version=v1.34.0'), [1, 'Error: invalid argument "v1.34.0" for "--version" flag: version "v1.34.0" must match major/minor/patch of default version "v1.33.0+capstan"\n']);
    assert.deepEqual(err('--version=v1.33.1'), [1, 'Error: invalid argument "v1.33.1" for "--version" flag: version "v1.33.1" must match major/minor/patch of default version "v1.33.0+capstan"\n']);
    assert.deepEqual(err('--version=vfoo'), [1, 'Error: invalid argument "vfoo" for "--version" flag: could not parse "vfoo" as version\n']);
    assert.deepEqual(err('--version=v1.33'), [1, 'Error: invalid argument "v1.33" for "--version" flag: illegal version string "v1.33"\n']);
    assert.deepEqual(err('--version=v1.33.0_x'), [1, 'Error: invalid argument "v1.33.0_x" for "--version" flag: could not parse pre-release/metadata (_x) in version "v1.33.0_x"\n']);
    assert.deepEqual(err('--version=maybe'), [1, 'Error: invalid argument "maybe" for "--version" flag: strconv.ParseBool: parsing "maybe": invalid syntax\n']);
  });

  it('parses semantic versions as apimachinery does', () => {
    assert.deepEqual(parseSemantic('v1.33.0-rc.1+abc'), { major: 1, minor: 33, patch: 0, preRelease: 'rc.1', buildMetadata: 'abc' });
    assert.throws(() => parseSemantic('v01.2.3'), /illegal zero-prefixed version component "01" in "v01.2.3"/);
    assert.throws(() => parseSemantic('v1.2.3-01'), /illegal zero-prefixed version component "01" in "v1.2.3-01"/);
    assert.equal(rawVersionText(buildVersionInfo('v1.33.0')).startsWith('version.Info{Major:"1", Minor:"33", '), true);
  });
});
