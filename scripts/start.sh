#!/usr/bin/env bash
# npm start: install what is missing, then bring the whole product up locally.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec node_modules/.bin/tsx scripts/start.ts
