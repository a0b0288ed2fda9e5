#!/usr/bin/env bash
# Stages the container image's /app into DIR/app from a built tree (run from the project root after
# `tsc`): the compiled server without tests, source maps or declarations, the data files it reads
# at run time (api/gen/openapi, proto/kms/v2/api.proto), package.json, and production
# node_modules (`npm ci --omit=dev`, no install scripts). Files are root-owned and read-only to
# the server's user. Used by hack/build-image.sh and deploy/Dockerfile alike.
# Usage: hack/image-app.sh DIR
set -euo pipefail

app=${1:?usage: image-app.sh DIR}/app
[ -f dist/cmd/apiserver/main.js ] || { echo "image-app: dist/cmd/apiserver/main.js is missing: build first" >&2; exit 1; }
mkdir -p "$app/api/gen" "$app/proto/kms/v2" "$app/dist"
cp package.json package-lock.json "$app/"
(cd "$app" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error >&2)
rm -f "$app/package-lock.json" "$app/node_modules/.package-lock.json"
# Source maps, type declarations and docs of dependencies are never read at run time.
find "$app/node_modules" -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \
  -o -name '*.md' -o -name '*.markdown' \) -delete
tar -C dist --exclude='*.map' --exclude='*.test.js' --exclude='*.d.ts' --exclude='testing.js' -cf - cmd internal api proto \
  | tar -C "$app/dist" -xf -
cp -r api/gen/openapi "$app/api/gen/"
cp proto/kms/v2/api.proto "$app/proto/kms/v2/"
chown -R 0:0 "$app" && chmod -R u=rwX,go=rX "$app"
