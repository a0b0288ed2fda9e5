#!/usr/bin/env bash
# Installs Debian's tools that build and run the container image (hack/build-image.sh,
# hack/image-test.sh) when they are missing: mmdebstrap (root filesystem from Debian packages),
# umoci (OCI image layout), containerd and runc (`ctr run`). Idempotent: does nothing when every
# tool is there. Needs root (or sudo) to install.
set -euo pipefail

declare -A tool_package=([mmdebstrap]=mmdebstrap [umoci]=umoci [containerd]=containerd [ctr]=containerd [runc]=runc)
packages=()
for tool in mmdebstrap umoci containerd ctr runc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    pkg="${tool_package[$tool]}"
    [[ " ${packages[*]} " == *" $pkg "* ]] || packages+=("$pkg")
  fi
done
if [ "${#packages[@]}" -eq 0 ]; then exit 0; fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-image-tools: ${packages[*]} missing and this user cannot install packages (not root, no sudo)" >&2
    exit 1
  fi
fi

echo "install-image-tools: installing Debian's ${packages[*]} package(s)" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
# containerd's package would start a system service where systemd runs; hack/image-test.sh starts
# its own containerd with private root, state and socket instead, and never relies on that one.
$SUDO apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
for tool in mmdebstrap umoci containerd ctr runc; do
  command -v "$tool" >/dev/null 2>&1 || { echo "install-image-tools: $tool still not on PATH after install" >&2; exit 1; }
done
