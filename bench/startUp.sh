#!/usr/bin/env bash
# Wall time from `npm start` to its ready line, on fresh clones of this repository:
# the first start (nothing built), a second one (nothing changed) and a third after
# one source file changed. node_modules is a symlink to this checkout's (no reinstall).
#
#   bench/startUp.sh [clones]          # `npm start` as package.json has it (default 3 clones)
#   bench/startUp.sh [clones] before   # the start before the incremental build: full tsc + vite every time
#
# BENCH_OVERLAY="path ..." copies those working-tree files over each clone (to measure uncommitted work).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
clones=${1:-3}
mode=${2:-now}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs the start command in $1 and prints the seconds until the ready line, then stops the service
# (its own session: SIGTERM to the process group reaches npm, the service and its devnets).
to_ready() {
  local log="$work/start.log" start end pid
  cd "$1"
  : >"$log"
  start=$(date +%s.%N)
  if [ "$mode" = before ]; then
    PORT=0 setsid bash -c 'npm run build --silent && exec node dist/src/main.js' >"$log" 2>&1 &
  else
    PORT=0 setsid npm start >"$log" 2>&1 &
  fi
  pid=$!
  until grep -q 'ready in' "$log"; do
    if ! kill -0 "$pid" 2>/dev/null; then cat "$log" >&2; echo "start failed" >&2; exit 1; fi
    sleep 0.02
  done
  end=$(date +%s.%N)
  kill -TERM -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  echo "$end - $start" | bc
}

printf '| clone | first start s | second start s | after touching one file s |\n|---|---|---|---|\n'
for i in $(seq 1 "$clones"); do
  dir="$work/clone$i"
  git clone -q "$repo" "$dir"
  ln -s "$repo/node_modules" "$dir/node_modules"
  for f in ${BENCH_OVERLAY:-}; do cp "$repo/$f" "$dir/$f"; done
  first=$(to_ready "$dir")
  second=$(to_ready "$dir")
  touch "$dir/src/rest/routes/health.ts"
  third=$(to_ready "$dir")
  printf '| %s | %.2f | %.2f | %.2f |\n' "$i" "$first" "$second" "$third"
  rm -rf "$dir"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
