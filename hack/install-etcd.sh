#!/usr/bin/env bash
# Installs Debian's etcd-server package when no etcd binary is on PATH (or at $ETCD_BIN), and
# etcd-client (etcdctl, which the encryption at rest tests read raw values with) when etcdctl is
# missing. Idempotent: does nothing when both are there. Needs root (or sudo) to install.
set -euo pipefail

packages=()
if ! { [ -n "${ETCD_BIN:-}" ] && [ -x "${ETCD_BIN}" ]; } && ! command -v etcd >/dev/null 2>&1; then
  packages+=(etcd-server)
fi
if ! command -v etcdctl >/dev/null 2>&1; then packages+=(etcd-client); fi
if [ "${#packages[@]}" -eq 0 ]; then exit 0; fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-etcd: ${packages[*]} missing and this user cannot install packages (not root, no sudo)" >&2
    exit 1
  fi
fi

echo "install-etcd: installing Debian's ${packages[*]} package(s)" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
# The server package's maintainer scripts try to start a system etcd; policy-rc.d stops that where
# invoke-rc.d is used, and we never depend on that service either way.
$SUDO apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
if [ -z "${ETCD_BIN:-}" ]; then
  command -v etcd >/dev/null 2>&1 || { echo "install-etcd: etcd still not on PATH after install" >&2; exit 1; }
  etcd --version | head -1 >&2
fi
command -v etcdctl >/dev/null 2>&1 || { echo "install-etcd: etcdctl still not on PATH after install" >&2; exit 1; }
etcdctl version | head -1 >&2
