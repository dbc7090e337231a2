#!/usr/bin/env bash
# `npm test`: installs what it needs (npm packages, Debian chromium, postgresql and mosquitto
# when absent), then runs every suite: format, lint (with the boundary plugin), type checks, unit,
# integration (PGlite and PostgreSQL), architecture and end-to-end tests (Chromium).
# Ends with one line `N passed, N failed` summing all suites.
source "$(dirname "$0")/lib.sh"
export NO_COLOR=1
PASSED=0
FAILED=0
FAILED_SUITES=()

count() { # name passed failed
  PASSED=$((PASSED + $2)); FAILED=$((FAILED + $3))
  if [ "$3" -gt 0 ]; then FAILED_SUITES+=("$1"); fi
}

gate() { # name command... : a check that counts as one test
  local name="$1"; shift
  echo "==> $name"
  if "$@"; then count "$name" 1 0; else count "$name" 0 1; fi
}

ensure_system_packages() {
  local missing=()
  command -v chromium >/dev/null || missing+=(chromium fonts-liberation)
  command -v pg_ctlcluster >/dev/null && [ -d /usr/lib/postgresql ] || missing+=(postgresql)
  [ -x /usr/sbin/mosquitto ] || missing+=(mosquitto)
  command -v tshark >/dev/null || missing+=(tshark) # decodes the SCADA connector's IEC 104 frames
  if [ ${#missing[@]} -gt 0 ]; then
    echo "==> Installing ${missing[*]} from Debian"
    local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# Starts the Debian PostgreSQL cluster and provides a role that may create test databases.
ensure_postgres() {
  local version cluster
  version="$(ls /usr/lib/postgresql | sort -n | tail -1)"
  cluster="$(pg_lsclusters -h | awk '{print $2}' | head -1)"
  if [ -z "$cluster" ]; then pg_createcluster "$version" main >/dev/null; cluster=main; fi
  pg_ctlcluster "$version" "$cluster" start 2>/dev/null || true
  local port
  port="$(pg_lsclusters -h | awk '{print $3}' | head -1)"
  local psql=(psql -p "$port" -v ON_ERROR_STOP=1 -qtA)
  if [ "$(id -u)" -eq 0 ]; then psql=(runuser -u postgres -- "${psql[@]}"); fi
  "${psql[@]}" -c "DO \$\$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname='gridwatch_test') THEN CREATE ROLE gridwatch_test LOGIN CREATEDB PASSWORD 'gridwatch_test'; END IF; END\$\$;" >/dev/null
  export TEST_PG_ADMIN_URL="postgres://gridwatch_test:gridwatch_test@127.0.0.1:${port}/postgres"
}

# Runs deno test and adds its counts (`ok | N passed | N failed` on the closing line).
deno_suite() { # name args...
  local name="$1"; shift
  echo "==> $name"
  local log; log="$(mktemp)"
  set +e
  npx --no-install deno test "$@" 2>&1 | tee "$log"
  set -e
  local line passed failed
  line="$(grep -E '(ok|FAILED) \| [0-9]+ passed' "$log" | tail -1 || true)"
  passed="$(echo "$line" | sed -nE 's/.*\| ([0-9]+) passed.*/\1/p')"
  failed="$(echo "$line" | sed -nE 's/.*\| ([0-9]+) failed.*/\1/p')"
  if [ -z "$line" ]; then passed=0; failed=1; fi
  count "$name" "${passed:-0}" "${failed:-0}"
  rm -f "$log"
}

e2e_suite() {
  echo "==> end-to-end (Chromium)"
  local log; log="$(mktemp)"
  set +e
  npx --no-install playwright test --config tests/e2e/playwright.config.ts 2>&1 | tee "$log"
  set -e
  local passed failed
  passed="$(grep -oE '^ +[0-9]+ passed' "$log" | grep -oE '[0-9]+' | tail -1 || true)"
  failed="$(grep -oE '^ +[0-9]+ failed' "$log" | grep -oE '[0-9]+' | awk '{s+=$1} END {print s+0}' || true)"
  if [ -z "$passed" ] && [ "$failed" -eq 0 ]; then failed=1; fi
  count "end-to-end" "${passed:-0}" "${failed:-0}"
  rm -f "$log"
}

ensure_system_packages
ensure_node_modules
ensure_postgres
ensure_web_build

# --expose-gc: releaseNativeHandles (core/time_series_store.ts) collects DuckDB handles before a
# test module's isolate is torn down (a Deno 2.9.5 Node-API finalizer crash).
DENO_PERMS=(--allow-net --allow-read --allow-write --allow-env --allow-ffi --allow-sys --allow-run --v8-flags=--expose-gc)
gate "format" npx --no-install deno fmt --check
gate "lint" npx --no-install deno lint
gate "type check (deno)" npx --no-install deno check --quiet main.ts kernel modules core scripts tests
gate "type check (web, tsc)" npx --no-install tsc -p web/tsconfig.json
deno_suite "unit and architecture" "${DENO_PERMS[@]}" kernel modules core scripts web/src tests/arch
deno_suite "integration" "${DENO_PERMS[@]}" tests/integration
e2e_suite

if [ ${#FAILED_SUITES[@]} -gt 0 ]; then echo "Failed suites: ${FAILED_SUITES[*]}"; fi
echo "${PASSED} passed, ${FAILED} failed"
[ "$FAILED" -eq 0 ]
