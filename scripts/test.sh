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

# Wall time per part of the run, printed at the end (docs/benchmarks.md "Run time").
TIMES=()
T0=$SECONDS
timed() { # part
  TIMES+=("$1 $((SECONDS - T0)) s")
  T0=$SECONDS
}

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

# Splits the integration test files into two shards of about equal time (longest first, each to
# the shard with less so far; weights from tests/integration/durations.txt, 20 s when missing).
integration_shards() {
  local f
  for f in tests/integration/*_test.ts; do
    echo "$(awk -v n="$(basename "$f")" '$2 == n { print $1 }' tests/integration/durations.txt | head -1) $f"
  done | awk '{ print ($1 == "" || NF < 2 ? 20 " " $1 : $0) }' | sort -rn |
    awk '{ if (a <= b) { a += $1; print "A " $2 } else { b += $1; print "B " $2 } }'
}

# The integration files in two processes at once (they wait on timers, sockets and each other's
# I/O as much as they compute); each shard's output is printed whole when both have ended.
integration_suite() {
  local shards; shards="$(integration_shards)"
  local a=() b=() line
  while read -r shard file; do
    if [ "$shard" = A ]; then a+=("$file"); else b+=("$file"); fi
  done <<<"$shards"
  local log_a log_b; log_a="$(mktemp)"; log_b="$(mktemp)"
  set +e
  npx --no-install deno test "${DENO_PERMS[@]}" "${a[@]}" >"$log_a" 2>&1 &
  local pid_a=$!
  npx --no-install deno test "${DENO_PERMS[@]}" "${b[@]}" >"$log_b" 2>&1 &
  local pid_b=$!
  wait "$pid_a"; wait "$pid_b"
  set -e
  local log name
  for log in "$log_a" "$log_b"; do
    name="integration ($([ "$log" = "$log_a" ] && echo 1 || echo 2) of 2)"
    echo "==> $name"
    cat "$log"
    line="$(grep -E '(ok|FAILED) \| [0-9]+ passed' "$log" | tail -1 || true)"
    if [ -z "$line" ]; then count "$name" 0 1; continue; fi
    count "$name" "$(echo "$line" | sed -nE 's/.*\| ([0-9]+) passed.*/\1/p')" \
      "$(echo "$line" | sed -nE 's/.*\| ([0-9]+) failed.*/\1/p')"
  done
  rm -f "$log_a" "$log_b"
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
timed "set-up"

# --expose-gc: releaseNativeHandles (core/time_series_store.ts) collects DuckDB handles before a
# test module's isolate is torn down (a Deno 2.9.5 Node-API finalizer crash; kept under 2.9.6).
DENO_PERMS=(--allow-net --allow-read --allow-write --allow-env --allow-ffi --allow-sys --allow-run --v8-flags=--expose-gc)
gate "format" npx --no-install deno fmt --check
gate "lint" npx --no-install deno lint
# The web app's own tests are Deno tests (tsc leaves them out); the suites below run unchecked.
mapfile -t WEB_TESTS < <(find web/src -name '*_test.ts' -o -name '*_test.tsx' | sort)
gate "type check (deno)" npx --no-install deno check --quiet main.ts kernel modules core scripts tests "${WEB_TESTS[@]}"
gate "type check (web, tsc)" npx --no-install tsc -p web/tsconfig.json
timed "format, lint, type checks"
# A test run creates its PGlite clusters from ones made once (kernel/db.ts), kept here.
GRIDWATCH_PGLITE_TEMPLATES="$(mktemp -d)"
export GRIDWATCH_PGLITE_TEMPLATES
trap 'rm -rf "$GRIDWATCH_PGLITE_TEMPLATES"' EXIT
# The type check gate above has checked every test file: the suites do not check them again.
deno_suite "unit and architecture" "${DENO_PERMS[@]}" --no-check --parallel kernel modules core scripts web/src tests/arch
DENO_PERMS+=(--no-check)
timed "unit"
integration_suite
timed "integration"
e2e_suite
timed "end-to-end"

echo "Wall time: $(IFS=,; echo "${TIMES[*]}" | sed 's/,/, /g'); total $((SECONDS / 60)) min"
if [ ${#FAILED_SUITES[@]} -gt 0 ]; then echo "Failed suites: ${FAILED_SUITES[*]}"; fi
echo "${PASSED} passed, ${FAILED} failed"
[ "$FAILED" -eq 0 ]
