/**
 * deploy/Dockerfile cannot be built here (no Docker engine), so it is checked as far as a file can
 * be: it parses, every COPY source exists in the build context and is not left out by
 * .dockerignore, every --from names an earlier stage, and its final stage describes the image that
 * hack/build-image.sh builds (entrypoint, user, port, volume, working dir, environment, versions).
 */
import assert from 'node:assert/strict';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { execForm, ignoredByDockerignore, parseDockerfile } from './dockerfile.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const read = (p: string): string => readFileSync(join(root, p), 'utf8');
const dockerfile = parseDockerfile(read('deploy/Dockerfile'));
const dockerignore = read('.dockerignore');
const script = read('hack/build-image.sh');
const final = dockerfile.stages[dockerfile.stages.length - 1];

/** The values hack/build-image.sh gives one umoci config flag, in order, with $uid expanded. */
function scriptConfig(flag: string): string[] {
  const uid = /^uid=(\d+)$/m.exec(script)?.[1] ?? '';
  return [...script.matchAll(new RegExp(`--config\\.${flag} "?([^"\\s\\\\]+)"?`, 'g'))].map((m) => (m[1] ?? '').replaceAll('$uid', uid));
}

function finalArgs(keyword: string): string[] {
  return (final?.instructions ?? []).filter((i) => i.keyword === keyword).map((i) => i.args);
}

describe('deploy/Dockerfile', () => {
  it('parses into a build stage on Node.js 20 (Debian) and a final stage from scratch', () => {
    assert.ok(dockerfile.stages.length >= 2);
    assert.ok(dockerfile.stages.some((s) => /^node:20-(bookworm|trixie)/.test(s.image)), 'a build stage FROM node:20 on Debian');
    assert.equal(final?.image, 'scratch');
  });

  it('copies only sources that exist in the context and .dockerignore keeps, from stages defined before', () => {
    const names: string[] = [];
    for (const stage of dockerfile.stages) {
      for (const ins of stage.instructions.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD')) {
        const paths = execForm(ins.args) ?? ins.args.split(' ');
        const sources = paths.slice(0, -1);
        assert.ok(sources.length > 0, `line ${ins.line}: ${ins.keyword} needs a source and a destination`);
        if (ins.flags.from !== undefined) {
          assert.ok(names.includes(ins.flags.from), `line ${ins.line}: --from=${ins.flags.from} is not an earlier stage`);
          continue;
        }
        for (const source of sources) {
          assert.ok(existsSync(join(root, source)), `line ${ins.line}: COPY source ${source} does not exist`);
          if (source !== '.') assert.ok(!ignoredByDockerignore(dockerignore, source), `line ${ins.line}: ${source} is left out by .dockerignore`);
        }
      }
      if (stage.name) names.push(stage.name);
    }
  });

  it('keeps out what the image builds itself, and keeps in what the build reads', () => {
    for (const p of ['node_modules/express', 'dist/cmd/apiserver/main.js', '_output/image', '.git/HEAD']) {
      assert.ok(ignoredByDockerignore(dockerignore, p), `${p} should not be sent to the builder`);
    }
    for (const p of ['package.json', 'tsconfig.json', 'cmd/apiserver/main.ts', 'api/gen/openapi/v2/swagger.json', 'proto/kms/v2/api.proto', 'test/support/server.ts', 'hack/image-app.sh']) {
      assert.ok(!ignoredByDockerignore(dockerignore, p), `${p} is needed by the build stage`);
    }
  });

  it('runs the same scripts as hack/build-image.sh, and they are executable', () => {
    const runs = dockerfile.stages.flatMap((s) => s.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args)).join('\n');
    for (const s of ['image-rootfs.sh', 'hack/image-app.sh']) assert.match(runs, new RegExp(s.replace('.', '\\.')));
    for (const s of ['hack/image-rootfs.sh', 'hack/image-app.sh', 'hack/build-image.sh']) accessSync(join(root, s), constants.X_OK);
  });

  it("describes the image hack/build-image.sh writes: entrypoint, user, port, volume, working dir, environment", () => {
    assert.deepEqual(execForm(finalArgs('ENTRYPOINT')[0] ?? ''), scriptConfig('entrypoint'));
    assert.deepEqual(finalArgs('USER'), scriptConfig('user'));
    assert.deepEqual(finalArgs('EXPOSE'), scriptConfig('exposedports'));
    assert.deepEqual(finalArgs('VOLUME').map((v) => execForm(v) ?? [v]).flat(), scriptConfig('volume'));
    assert.deepEqual(finalArgs('WORKDIR'), scriptConfig('workingdir'));
    assert.deepEqual(finalArgs('ENV').flatMap((e) => e.split(' ')), scriptConfig('env'));
    assert.deepEqual(scriptConfig('user'), ['65532:65532'], 'a non-root user');
  });

  it("labels the version from package.json and the Kubernetes version from api/gen/resources.ts", () => {
    const args = Object.fromEntries(dockerfile.globalArgs.map((a) => a.args.split('=') as [string, string]));
    assert.equal(args.VERSION, (JSON.parse(read('package.json')) as { version: string }).version);
    assert.equal(args.KUBERNETES_VERSION, /kubernetesVersion = "([^"]+)"/.exec(read('api/gen/resources.ts'))?.[1]);
    const labels = finalArgs('LABEL').join(' ');
    assert.match(labels, /org\.opencontainers\.image\.version="\$\{VERSION\}"/);
    assert.match(labels, /io\.capstan\.kubernetes-version="\$\{KUBERNETES_VERSION\}"/);
  });
});
