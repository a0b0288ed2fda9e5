#!/usr/bin/env bash
# Installs from Debian what the node agent, its tests and `make run-node` need when it is missing:
# containerd (and ctr), runc, containernetworking-plugins (the CNI bridge, host-local, portmap and
# loopback under /usr/lib/cni), busybox-static and umoci, gcc and libc6-dev (hack/node-images/build.sh
# builds the offline busybox and pause images with them), iproute2 (`ip`, the bridge's cleanup) and
# iptables (the CNI bridge's ipMasq and portmap write rules with it). Idempotent and silent when
# everything is there. Needs root (or sudo) to install; says which packages are missing otherwise.
set -euo pipefail

packages=()
want() { [[ " ${packages[*]} " == *" $1 "* ]] || packages+=("$1"); }
tool() { command -v "$1" >/dev/null 2>&1 || want "$2"; }

tool containerd containerd
tool ctr containerd
tool runc runc
tool umoci umoci
tool gcc gcc
tool ip iproute2
tool iptables iptables
for plugin in bridge host-local portmap loopback; do
  [ -x "/usr/lib/cni/$plugin" ] || want containernetworking-plugins
done
# The busybox image copies the static binary: Debian's busybox (dynamic) installs /bin/busybox too.
if ! { [ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1; }; then want busybox-static; fi
[ -f /usr/lib/x86_64-linux-gnu/libc.a ] || [ -f /usr/lib/aarch64-linux-gnu/libc.a ] || want libc6-dev
if [ "${#packages[@]}" -eq 0 ]; then exit 0; fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
    echo "install-node: ${packages[*]} missing and this user cannot install packages (not root, no sudo); run as root: sudo hack/install-node.sh" >&2
    exit 1
  fi
fi

echo "install-node: installing Debian's ${packages[*]} package(s)" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
# containerd's package starts a system service where systemd runs; the node agent's tests and
# `make run-node` start their own containerd (hack/local-containerd.ts) and never use that one.
$SUDO apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
for t in containerd ctr runc umoci gcc ip iptables; do
  command -v "$t" >/dev/null 2>&1 || { echo "install-node: $t still not on PATH after install" >&2; exit 1; }
done
for plugin in bridge host-local portmap loopback; do
  [ -x "/usr/lib/cni/$plugin" ] || { echo "install-node: /usr/lib/cni/$plugin still missing after install" >&2; exit 1; }
done
