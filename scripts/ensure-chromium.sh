#!/usr/bin/env bash
# Installs Debian's chromium for the dashboard's browser test when it is missing. Idempotent;
# non-interactive; uses sudo only when not root. Prints where chromium is.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "ensure-chromium: /usr/bin/chromium is present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi
export DEBIAN_FRONTEND=noninteractive
# A stale package index can name files the mirror no longer has: refresh once, then install.
$SUDO apt-get update -qq >/dev/null 2>&1 || true
$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
echo "ensure-chromium: installed $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"
