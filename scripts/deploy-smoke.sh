#!/usr/bin/env bash
# The deployment, run for real on this machine: the project's images built from its
# Dockerfile, the compose stack started, a customer's first calls made through the published
# ports, the scorers scaled out and one killed, then everything removed again.
#   bash scripts/deploy-smoke.sh           CI's short mode
#   bash scripts/deploy-smoke.sh --full    the full scaling benchmark (BENCHMARKS.md)
# No registry is needed: base images come from Debian's packages and the npm registry
# (scripts/deploy/build-base-images.sh, cached). Only ports published on 127.0.0.1 are
# reached; the containers talk only to each other on the compose network.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
. scripts/deploy/docker-engine.sh
mode=--quick
[ "${1:-}" = "--full" ] && mode=""

export COMPOSE_PROJECT_NAME="${COMPOSE_PROJECT_NAME:-adrank-smoke}"
# Ports of their own, so a stack already running on the defaults is left alone.
export GATEWAY_PORT="${GATEWAY_PORT:-18080}" DASHBOARD_PORT="${DASHBOARD_PORT:-18090}"
export JAEGER_UI_PORT="${JAEGER_UI_PORT:-16687}" OTLP_HTTP_PORT="${OTLP_HTTP_PORT:-14318}"
export NATS_PORT="${NATS_PORT:-14222}"
# NATS as deployed: a user per service with a fresh password, TLS with a throwaway CA
# (infra/compose/nats-tls.yml), and for this run only the port published on 127.0.0.1 so the
# checks below can try it from outside (test/deploy/nats-published.yml).
NATS_TLS_DIR="$(mktemp -d "${TMPDIR:-/tmp}/adrank-smoke-nats-tls.XXXXXX")"
chmod 755 "$NATS_TLS_DIR"
export NATS_TLS_DIR
bash scripts/deploy/nats-tls.sh "$NATS_TLS_DIR"
# A letter first: nats-server reads a $VARIABLE's value as configuration, so a hex password like
# "3e9f…" (a float) or "12345…" (an integer) stopped it from starting, in about a third of runs.
for user in LEDGER GATEWAY SCORER PANEL_VOTER REFINEMENT DASHBOARD ADMIN; do
  export "NATS_${user}_PASSWORD=p$(openssl rand -hex 24)"
done
# Postgres as deployed: each service its own login role (made by the migrate service), fresh passwords.
for user in GATEWAY LEDGER DASHBOARD ADMIN; do
  export "POSTGRES_${user}_PASSWORD=$(openssl rand -hex 24)"
done
export COMPOSE_FILE=docker-compose.yml:infra/compose/nats-tls.yml:test/deploy/nats-published.yml
# --compatibility: docker-compose 1.29 applies the deploy.resources limits only with it.
compose() { docker-compose --compatibility --env-file infra/offline/images.env "$@"; }
step() { echo "deploy-smoke: $* ($((SECONDS - t0)) s)" >&2; }

cleanup() {
  local status=$?
  if [ $status -ne 0 ] && docker version >/dev/null 2>&1; then
    echo "deploy-smoke: failed; state and last log lines:" >&2
    compose ps >&2 || true
    compose logs --no-color --tail=40 >&2 || true
  fi
  # Containers, networks and volumes of this project; the images stay as the build cache.
  compose down --volumes --remove-orphans --timeout 10 >/dev/null 2>&1 || true
  rm -rf "$NATS_TLS_DIR"
  # Layers a rebuild left without a tag (only this project's engine holds any).
  docker image prune --force >/dev/null 2>&1 || true
  stop_docker_engine
  exit $status
}

t0=$SECONDS
ensure_docker_engine
trap cleanup EXIT
bash scripts/deploy/build-base-images.sh
step "base images ready"

compose --profile admin build
step "service images built"

compose up -d
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$GATEWAY_PORT/readyz" >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS "http://127.0.0.1:$GATEWAY_PORT/readyz" >/dev/null
step "stack up and ready"

node test/deploy/nats-auth-checks.ts
step "NATS checks passed"

node test/deploy/smoke-checks.ts
step "customer checks passed"

# Each service signed in to Postgres with its own login role (made by the migrate service), and
# none of them can change the schema: a service says so at start when its role could.
compose logs --no-color migrate | grep -q "login role adrank_gateway_login" \
  || { echo "deploy-smoke: the migrate service made no login roles" >&2; exit 1; }
if compose logs --no-color gateway ledger dashboard | grep -F "could change the schema" >&2; then
  echo "deploy-smoke: a service runs with a database role that can change the schema" >&2
  exit 1
fi
echo "ok database roles: every service on its own, none can change the schema"

# A deployment that must not serve simulated scores refuses to start with them.
if refusal="$(compose run --rm --no-deps -e ADRANK_ALLOW_SIM=false scorer 2>&1)"; then
  echo "deploy-smoke: the scorer started with sim models although ADRANK_ALLOW_SIM=false" >&2
  exit 1
fi
echo "ok sim refused: $(printf '%s\n' "$refusal" | grep -m1 ADRANK_ALLOW_SIM)"

node test/bench/scorer-scaling.bench.ts $mode
step "scaling and kill checks passed"
