#!/usr/bin/env bash
# `npm run lint:openapi`: the OpenAPI document as partners get it, checked by Redocly (recommended)
# and Spectral (spectral:oas) with zero warnings; then the typed client generated from it and the
# example that uses it type-checked. The generated types are committed: a route change that alters
# them must commit the new ones, so a partner-visible change never slips through unseen.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent openapi
npx redocly lint openapi.json
npx spectral lint openapi.json --fail-severity=warn
npm run --silent client:generate
npx tsc -p examples/tsconfig.json
if ! git diff --quiet -- examples/generated; then
  git --no-pager diff --stat -- examples/generated
  echo "examples/generated is out of date with the routes: commit what npm run lint:openapi generated." >&2
  exit 1
fi
