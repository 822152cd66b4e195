#!/usr/bin/env bash
# The one entry point a fresh machine needs:
#   bash scripts/run.sh start   installs Node 24 and packages if needed, starts NATS and
#                               PostgreSQL if they are down, then runs the whole stack
#   bash scripts/run.sh test    the same set-up plus Debian's chromium (the console's browser
#                               test), then `npm test` (lint, typecheck, audit, every test)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

install_packages() {
  # Installs the versions pinned in package-lock.json. Not `npm ci`: npm 11 leaves other
  # platforms' optional packages (turbo's darwin/windows binaries) out of the lock and then
  # `npm ci` refuses that same lock (npm/cli#4828). Only when the tree is missing or stale.
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ] || [ package.json -nt node_modules/.package-lock.json ]; then
    npm install --no-audit --no-fund
  fi
}

case "${1:-}" in
  start)
    install_packages
    bash scripts/ensure-services.sh
    exec npm start
    ;;
  test)
    install_packages
    bash scripts/ensure-services.sh
    bash scripts/ensure-chromium.sh
    # The SDK's oldest promised Node, for its published-package test.
    bash scripts/ensure-node-version.sh 22 >/dev/null
    exec npm test
    ;;
  *)
    echo "usage: bash scripts/run.sh start|test" >&2
    exit 2
    ;;
esac
