#!/usr/bin/env bash
# `npm start`: installs what is missing, builds the web app when stale, starts the platform
# with the embedded databases (PGlite + DuckDB in $DATA_DIR) and the demo utility.
source "$(dirname "$0")/lib.sh"
ensure_node_modules
ensure_web_build
runtime_env
echo "==> Starting on port ${PORT:-8080} (data in ${DATA_DIR:-./data})"
exec npx --no-install deno run --allow-net --allow-read --allow-write --allow-env --allow-ffi --allow-sys main.ts
