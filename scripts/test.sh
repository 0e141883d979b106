#!/usr/bin/env bash
# npm test: install what is missing, then lint, typecheck and every suite against the real stack.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec node_modules/.bin/tsx scripts/test.ts "$@"
