# Shared steps of scripts/start.sh and scripts/test.sh (sourced, not run).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# Installs npm dependencies when node_modules is missing or older than package-lock.json.
ensure_node_modules() {
  local stamp="node_modules/.gridwatch-installed"
  if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
    echo "==> Installing npm dependencies"
    npm ci --no-audit --no-fund --loglevel=error
    touch "$stamp"
  fi
}

# Builds the web app when web/dist is missing or older than any of its sources.
ensure_web_build() {
  local stamp="web/dist/.build-stamp"
  if [ ! -f "$stamp" ] || [ -n "$(find web/src web/public web/index.html web/vite.config.ts web/tsconfig.json kernel/i18n package-lock.json -newer "$stamp" -print -quit 2>/dev/null)" ]; then
    echo "==> Building the web app"
    npx vite build --config web/vite.config.ts --logLevel warn
    touch "$stamp"
  fi
}

deno() { npx --no-install deno "$@"; }

# Exports the platform's runtime settings (scripts/runtime.env) that the environment lacks.
runtime_env() {
  local key value
  while IFS='=' read -r key value; do
    [[ -z "$key" || "$key" == \#* ]] && continue
    [ -z "${!key:-}" ] && export "$key=$value"
  done < "$ROOT/scripts/runtime.env"
  return 0
}
