#!/usr/bin/env bash
# Builds the node agent's two OCI images offline, with no registry: capstan.local/busybox:1 (Debian's
# busybox-static with every applet linked) and capstan.local/pause:1 (hack/node-images/pause.c,
# static), each as an OCI archive in $OUT (default _output/node-images), made with umoci. They are
# rebuilt only when their inputs change. Import them with hack/node-images/import.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-_output/node-images}
mkdir -p "$OUT"
need() { command -v "$1" >/dev/null 2>&1 || MISSING+=("$2"); }
MISSING=()
need umoci umoci
need gcc gcc
[ -x /bin/busybox ] || MISSING+=(busybox-static)
[ -f /usr/lib/x86_64-linux-gnu/libc.a ] || [ -f /usr/lib/aarch64-linux-gnu/libc.a ] || MISSING+=(libc6-dev)
if [ ${#MISSING[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${MISSING[@]}" >/dev/null
fi

stamp_of() { cat "$@" | sha256sum | cut -c1-16; }

# image NAME TAG ROOTFS-DIR CMD-JSON-ARGS...: an OCI archive $OUT/NAME.tar with one layer.
image() {
  local name=$1 tag=$2 rootfs=$3; shift 3
  local work; work=$(mktemp -d)
  umoci init --layout "$work/layout"
  umoci new --image "$work/layout:$tag"
  umoci unpack --rootless --image "$work/layout:$tag" "$work/bundle" >/dev/null
  cp -a "$rootfs/." "$work/bundle/rootfs/"
  umoci repack --image "$work/layout:$tag" "$work/bundle"
  local args=()
  for a in "$@"; do args+=(--config.cmd "$a"); done
  umoci config --image "$work/layout:$tag" --config.workingdir / --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${args[@]}"
  umoci gc --layout "$work/layout"
  tar -C "$work/layout" -cf "$OUT/$name.tar.tmp" .
  mv "$OUT/$name.tar.tmp" "$OUT/$name.tar"
  rm -rf "$work"
}

BUSYBOX_STAMP=$(stamp_of /bin/busybox hack/node-images/build.sh)
if [ "$(cat "$OUT/busybox.stamp" 2>/dev/null)" != "$BUSYBOX_STAMP" ]; then
  root=$(mktemp -d)
  mkdir -p "$root/bin" "$root/tmp" "$root/etc"
  cp /bin/busybox "$root/bin/busybox"
  for applet in $(/bin/busybox --list); do [ "$applet" = busybox ] || ln -sf busybox "$root/bin/$applet"; done
  chmod 1777 "$root/tmp"
  echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
  echo 'nobody:x:65534:65534:nobody:/:/bin/false' >>"$root/etc/passwd"
  echo 'root:x:0:' >"$root/etc/group"
  echo 'nogroup:x:65534:' >>"$root/etc/group"
  image busybox 1 "$root" sh
  rm -rf "$root"
  echo "$BUSYBOX_STAMP" >"$OUT/busybox.stamp"
fi

PAUSE_STAMP=$(stamp_of hack/node-images/pause.c hack/node-images/build.sh)
if [ "$(cat "$OUT/pause.stamp" 2>/dev/null)" != "$PAUSE_STAMP" ]; then
  root=$(mktemp -d)
  gcc -static -Os -o "$root/pause" hack/node-images/pause.c
  strip "$root/pause"
  image pause 1 "$root" /pause
  rm -rf "$root"
  echo "$PAUSE_STAMP" >"$OUT/pause.stamp"
fi
echo "$OUT/busybox.tar $OUT/pause.tar"
