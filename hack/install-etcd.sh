#!/usr/bin/env bash
# Installs Debian's etcd-server package when no etcd binary is on PATH (or at $ETCD_BIN).
# Idempotent: does nothing when etcd is already there. Needs root (or sudo) to install.
set -euo pipefail

if [ -n "${ETCD_BIN:-}" ] && [ -x "${ETCD_BIN}" ]; then exit 0; fi
if command -v etcd >/dev/null 2>&1; then exit 0; fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-etcd: etcd is missing and this user cannot install packages (not root, no sudo)" >&2
    exit 1
  fi
fi

echo "install-etcd: installing Debian's etcd-server package" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
# The package's maintainer scripts try to start a system etcd; policy-rc.d stops that where
# invoke-rc.d is used, and we never depend on that service either way.
$SUDO apt-get install -y -qq --no-install-recommends etcd-server >/dev/null
command -v etcd >/dev/null 2>&1 || { echo "install-etcd: etcd still not on PATH after install" >&2; exit 1; }
etcd --version | head -1 >&2
