# Sourced by the deploy scripts: a Docker engine of the project's own. Debian's docker.io
# runs with its data root, exec root and socket under one folder (ADRANK_DOCKER_DIR), so it
# never touches a system Docker and its image cache outlives a run.
#   ensure_docker_engine    installs Docker, compose and mmdebstrap when missing; starts dockerd
#   stop_docker_engine      stops dockerd again, only if ensure_docker_engine started it
ADRANK_DOCKER_DIR="${ADRANK_DOCKER_DIR:-${TMPDIR:-/tmp}/adrank-docker}"
export DOCKER_HOST="unix://$ADRANK_DOCKER_DIR/docker.sock"
# Debian's CLI matches Debian's engine; a newer CLI earlier on PATH may insist on buildx. A
# folder holding only that `docker` goes first on PATH, for docker-compose's builds too.
mkdir -p "$ADRANK_DOCKER_DIR/bin"
ln -sf /usr/bin/docker "$ADRANK_DOCKER_DIR/bin/docker"
export PATH="$ADRANK_DOCKER_DIR/bin:$PATH"
_adrank_started_dockerd=""

_as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi; }

ensure_docker_engine() {
  local missing=()
  [ -x /usr/sbin/dockerd ] && [ -x /usr/bin/docker ] || missing+=(docker.io)
  command -v docker-compose >/dev/null || missing+=(docker-compose)
  command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
  [ -x /usr/bin/docker-init ] || missing+=(tini)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "deploy: installing ${missing[*]} from Debian's packages" >&2
    _as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null \
      || { _as_root apt-get update -q >/dev/null && _as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null; }
  fi
  if docker version >/dev/null 2>&1; then return 0; fi
  mkdir -p "$ADRANK_DOCKER_DIR"
  echo "deploy: starting dockerd (data root $ADRANK_DOCKER_DIR/data)" >&2
  _as_root /usr/sbin/dockerd --data-root "$ADRANK_DOCKER_DIR/data" --exec-root "$ADRANK_DOCKER_DIR/exec" \
    -H "$DOCKER_HOST" --pidfile "$ADRANK_DOCKER_DIR/dockerd.pid" >"$ADRANK_DOCKER_DIR/dockerd.log" 2>&1 &
  _adrank_started_dockerd=1
  for _ in $(seq 1 60); do
    docker version >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "deploy: dockerd did not answer within 30 s; last lines of its log:" >&2
  tail -n 20 "$ADRANK_DOCKER_DIR/dockerd.log" >&2
  return 1
}

stop_docker_engine() {
  [ -n "$_adrank_started_dockerd" ] || return 0
  local pid
  pid="$(cat "$ADRANK_DOCKER_DIR/dockerd.pid" 2>/dev/null || true)"
  [ -n "$pid" ] || return 0
  _as_root kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.25; done
}
