#!/usr/bin/env bash
# Copies the Kubernetes API data this project generates from out of ../shared/k8s-api into
# hack/api-data/, so generation and its verify step work on a clone that has no ../shared.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="${1:-$here/../../shared/k8s-api}"
[ -d "$src" ] || { echo "sync-api-data: $src not found" >&2; exit 1; }
mkdir -p "$here/api-data"
cp "$src/resources.json" "$src/MANIFEST.json" "$here/api-data/"
echo "sync-api-data: copied from $src" >&2
