#!/usr/bin/env bash
# npm run cluster: install what is missing (haproxy and coturn among it), then bring the multi-node stack up.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/setup.sh
exec node_modules/.bin/tsx scripts/cluster/main.ts
