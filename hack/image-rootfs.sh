#!/usr/bin/env bash
# Writes the container image's base root filesystem into DIR: Debian packages extracted with
# mmdebstrap's extract variant (nodejs with its shared libraries, ca-certificates, netbase, tzdata;
# no shell, no package manager), then what their maintainer scripts would have made (merged-/usr
# links, the CA bundle), the users (root, nobody, nonroot = 65532) and a cert dir
# /var/run/kubernetes owned by 65532. Used by hack/build-image.sh and deploy/Dockerfile alike.
#
# Node.js: Debian 12 (bookworm) ships nodejs 18, below package.json's engines (>=20.19); Debian 13
# (trixie), on the same mirror, ships nodejs 20.19, so the base is trixie's.
# Usage: hack/image-rootfs.sh DIR   (as root; env DEBIAN_SUITE, DEBIAN_MIRROR)
set -euo pipefail

rootfs=${1:?usage: image-rootfs.sh DIR}
suite=${DEBIAN_SUITE:-trixie}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
uid=65532

# A package list for scanners, as distroless keeps it (status.d, one file a package), since the
# extract variant leaves dpkg's own database empty.
status_hook='mkdir -p "$1/var/lib/dpkg/status.d"; for deb in "$1"/var/cache/apt/archives/*.deb; do
  p=$(dpkg-deb -f "$deb" Package); { dpkg-deb -f "$deb" Package Version Architecture Source Maintainer Homepage;
  echo "Status: install ok installed"; } > "$1/var/lib/dpkg/status.d/$p"; done'
mmdebstrap --quiet --mode=root --variant=extract --format=directory --skip=output/dev \
  --include=nodejs,ca-certificates,netbase,tzdata --extract-hook="$status_hook" \
  "$suite" "$rootfs" "$mirror" >&2
for d in bin lib lib64 sbin; do [ -e "$rootfs/$d" ] || ln -s "usr/$d" "$rootfs/$d"; done
[ -e "$rootfs/var/run" ] || ln -s ../run "$rootfs/var/run"
# What update-ca-certificates would write; Debian's node also loads it as its extra CA bundle.
mkdir -p "$rootfs/etc/ssl/certs"
find "$rootfs/usr/share/ca-certificates/mozilla" -name '*.crt' | sort | xargs cat > "$rootfs/etc/ssl/certs/ca-certificates.crt"
# Documentation, charset converters, debconf and corepack are never used by the server (the last
# two are dropped whole, their package entries too).
rm -rf "$rootfs"/usr/share/{doc,man,info,lintian,locale,bug} "$rootfs"/usr/lib/x86_64-linux-gnu/gconv \
  "$rootfs"/usr/bin/debconf* "$rootfs"/usr/share/debconf "$rootfs"/usr/share/perl5 "$rootfs"/var/cache/debconf \
  "$rootfs"/usr/bin/corepack "$rootfs"/usr/share/nodejs/corepack "$rootfs"/var/lib/apt "$rootfs"/var/cache/apt \
  "$rootfs"/var/log/* "$rootfs"/var/lib/dpkg/{status,available,info,triggers,updates,arch} \
  "$rootfs"/usr/sbin/dpkg-{preconfigure,reconfigure} "$rootfs"/var/lib/dpkg/status.d/{debconf,node-corepack}
cat > "$rootfs/etc/passwd" <<PASSWD
root:x:0:0:root:/root:/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin
nonroot:x:$uid:$uid:nonroot:/home/nonroot:/sbin/nologin
PASSWD
cat > "$rootfs/etc/group" <<GROUP
root:x:0:
nogroup:x:65534:
nonroot:x:$uid:
GROUP
mkdir -p "$rootfs"/{root,home/nonroot,run/kubernetes,tmp,dev,proc,sys}
chown "$uid:$uid" "$rootfs/home/nonroot" "$rootfs/run/kubernetes"
chmod 700 "$rootfs/root" && chmod 1777 "$rootfs/tmp"
chroot "$rootfs" /usr/bin/node -e 'if (+process.versions.node.split(".")[0] < 20) process.exit(1)' || {
  echo "image-rootfs: the root filesystem's node does not run or is older than 20" >&2
  exit 1
}
