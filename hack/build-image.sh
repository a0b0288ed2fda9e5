#!/usr/bin/env bash
# Builds Capstan's container image offline, from Debian's package mirror and the npm registry only
# (no Docker engine, no image registry): a distroless-like root filesystem from Debian packages
# (hack/image-rootfs.sh: Node.js 20 and CA certificates with their shared libraries, no shell, no
# package manager), then the server (hack/image-app.sh: dist/, the data files it reads, production
# node_modules) under /app, run as uid/gid 65532. Writes an OCI image layout (umoci) and an OCI
# archive tarball; deploy/Dockerfile describes the same image for users with Docker.
#
# Node.js comes from Debian 13 (trixie)'s nodejs 20.19 (bookworm's is 18, too old): built from
# packages alone, reproducible on any machine reaching the mirror, rather than a copy of this
# machine's own node binary.
#
# Usage: hack/build-image.sh [--force]   (expects `make build` to have run; `make image` does both)
# Environment: IMAGE_OUT (default _output/image), IMAGE_NAME (default capstan/apiserver),
# DEBIAN_SUITE (default trixie), DEBIAN_MIRROR (default http://deb.debian.org/debian).
# Skips the build when the inputs (dist/, package-lock.json, the image scripts) have not changed since the
# last one; --force builds anyway. Prints the image's size and the archive's path at the end.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
out=${IMAGE_OUT:-$root/_output/image}
name=${IMAGE_NAME:-capstan/apiserver}
suite=${DEBIAN_SUITE:-trixie}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
uid=65532
force=0
[ "${1:-}" = "--force" ] && force=1

start=$(date +%s)
die() { echo "build-image: $*" >&2; exit 1; }
[ -f dist/cmd/apiserver/main.js ] || die "dist/cmd/apiserver/main.js is missing: run \`make build\` first (or \`make image\`)"
[ "$(id -u)" -eq 0 ] || die "must run as root: mmdebstrap --mode=root writes files owned by root and by uid $uid"
hack/install-image-tools.sh

version=$(node -p 'require("./package.json").version')
kube=$(sed -n 's/^export const kubernetesVersion = "\(.*\)";$/\1/p' api/gen/resources.ts)
[ -n "$kube" ] || die "cannot read kubernetesVersion from api/gen/resources.ts"
tag=$version
kube_tag=$version-kube$kube
archive=$out/capstan-$version.oci.tar

# The digest of what goes into the image decides whether an earlier build is still current.
inputs=$( { find dist/cmd dist/internal dist/api dist/proto api/gen/openapi proto/kms/v2/api.proto -type f \
    ! -name '*.map' ! -name '*.test.js' ! -name '*.d.ts' ! -name 'testing.js' -print0 | sort -z | xargs -0 sha256sum;
  sha256sum package.json package-lock.json hack/build-image.sh hack/image-rootfs.sh hack/image-app.sh; echo "$suite $mirror $name"; } | sha256sum | cut -d' ' -f1)
if [ "$force" -eq 0 ] && [ -f "$archive" ] && [ "$(cat "$out/inputs.sha256" 2>/dev/null)" = "$inputs" ]; then
  echo "build-image: $archive is current (inputs unchanged; --force rebuilds)" >&2
  exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/capstan-image.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# 1. The base (Debian packages) and 2. the server under /app, each a layer of its own.
echo "build-image: root filesystem from Debian $suite (nodejs, ca-certificates, netbase, tzdata)" >&2
rootfs=$work/rootfs
DEBIAN_SUITE=$suite DEBIAN_MIRROR=$mirror hack/image-rootfs.sh "$rootfs"
echo "build-image: /app (dist, api/gen/openapi, proto, npm ci --omit=dev)" >&2
hack/image-app.sh "$work/app"

# 3. The OCI image: two layers (the base changes rarely, the app often), then the config.
layout=$work/layout
umoci init --layout "$layout"
umoci new --image "$layout:$tag"
layer() { # directory -> a reproducible layer tarball
  tar -C "$1" --sort=name --mtime='@0' --owner=0 --group=0 --numeric-owner --xattrs -cf "$2" .
}
# The rootfs keeps its owners (uid 65532 on its writable dirs); the app is root-owned, read-only.
tar -C "$rootfs" --sort=name --mtime='@0' --numeric-owner -cf "$work/base.tar" .
layer "$work/app" "$work/app.tar"
umoci raw add-layer --image "$layout:$tag" --history.created_by "mmdebstrap --variant=extract $suite: nodejs ca-certificates netbase tzdata" "$work/base.tar"
umoci raw add-layer --image "$layout:$tag" --history.created_by "capstan $version: /app (dist, production node_modules)" "$work/app.tar"
created=$(date -u +%Y-%m-%dT%H:%M:%SZ)
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
umoci config --image "$layout:$tag" \
  --config.user "$uid:$uid" \
  --config.entrypoint node --config.entrypoint /app/dist/cmd/apiserver/main.js \
  --config.workingdir /app \
  --config.env PATH=/usr/local/bin:/usr/bin:/bin --config.env NODE_ENV=production \
  --config.exposedports 6443/tcp \
  --config.volume /var/run/kubernetes \
  --config.label org.opencontainers.image.title=capstan-apiserver \
  --config.label "org.opencontainers.image.description=Capstan, a Kubernetes-compatible API server backed by etcd" \
  --config.label "org.opencontainers.image.version=$version" \
  --config.label "org.opencontainers.image.revision=$revision" \
  --config.label "org.opencontainers.image.created=$created" \
  --config.label "org.opencontainers.image.base.name=debian:$suite (nodejs, ca-certificates; mmdebstrap extract)" \
  --config.label "io.capstan.kubernetes-version=$kube" \
  --manifest.annotation "org.opencontainers.image.version=$version" \
  --author "Capstan" --created "$created" \
  --history.created_by "capstan $version: config (user $uid, entrypoint node /app/dist/cmd/apiserver/main.js, port 6443)"
umoci tag --image "$layout:$tag" "$kube_tag"
umoci gc --layout "$layout"

# 4. Outputs: the layout directory and the same as an OCI archive (what `ctr images import`,
# `podman load` and `skopeo copy oci-archive:` read).
rm -rf "$out/oci" "$archive"
cp -a "$layout" "$out/oci"
tar -C "$layout" --sort=name --numeric-owner -cf "$archive" .
echo "$inputs" > "$out/inputs.sha256"
echo "$name:$tag" > "$out/image-name"

layers=$(du -cb "$layout"/blobs/sha256/* | tail -1 | cut -f1)
unpacked=$(du -sb "$rootfs" "$work/app" | awk '{s+=$1} END {print s}')
printf 'build-image: %s:%s (also :%s) in %ss\n' "$name" "$tag" "$kube_tag" "$(( $(date +%s) - start ))" >&2
printf 'build-image: compressed %s MB, unpacked %s MB; layout %s, archive %s\n' \
  "$(( layers / 1000000 ))" "$(( unpacked / 1000000 ))" "$out/oci" "$archive" >&2
