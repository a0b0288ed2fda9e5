#!/usr/bin/env bash
# Copies the Kubernetes API data this project generates from out of ../shared/k8s-api into
# hack/api-data/, so generation and its verify step work on a clone that has no ../shared.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="${1:-$here/../../shared/k8s-api}"
[ -d "$src" ] || { echo "sync-api-data: $src not found" >&2; exit 1; }
mkdir -p "$here/api-data/openapi/v2" "$here/api-data/proto"
cp "$src/resources.json" "$src/MANIFEST.json" "$here/api-data/"
cp "$src/openapi/v2/swagger.json" "$here/api-data/openapi/v2/"
cp "$src/proto/fields.json" "$here/api-data/proto/"
mkdir -p "$here/../api/gen/openapi/v3"
for f in "$src"/openapi/v3/*.json; do
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); open(sys.argv[2],"w").write(json.dumps(d,separators=(",",":"),sort_keys=True))' \
    "$f" "$here/../api/gen/openapi/v3/$(basename "$f")"
done
mkdir -p "$here/../api/gen/openapi/v2"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); open(sys.argv[2],"w").write(json.dumps(d,separators=(",",":"),sort_keys=True))' \
  "$src/openapi/v2/swagger.json" "$here/../api/gen/openapi/v2/swagger.json"
echo "sync-api-data: copied from $src" >&2
