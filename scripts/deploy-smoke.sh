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

compose build
step "service images built"

compose up -d
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$GATEWAY_PORT/readyz" >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS "http://127.0.0.1:$GATEWAY_PORT/readyz" >/dev/null
step "stack up and ready"

node test/deploy/smoke-checks.ts
step "customer checks passed"

# A deployment that must not serve simulated scores refuses to start with them.
if refusal="$(compose run --rm --no-deps -e ADRANK_ALLOW_SIM=false scorer 2>&1)"; then
  echo "deploy-smoke: the scorer started with sim models although ADRANK_ALLOW_SIM=false" >&2
  exit 1
fi
echo "ok sim refused: $(printf '%s\n' "$refusal" | grep -m1 ADRANK_ALLOW_SIM)"

node test/bench/scorer-scaling.bench.ts $mode
step "scaling and kill checks passed"
