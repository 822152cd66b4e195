#!/usr/bin/env bash
# Makes sure the local NATS (JetStream) and PostgreSQL the tests use are up, starting each
# with this machine's own command when it is down. Set NATS_URL / DATABASE_URL to point
# elsewhere (loopback only in tests).
set -euo pipefail

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_port() {
  local port=$1 name=$2
  for _ in $(seq 1 60); do port_open "$port" && return 0; sleep 0.5; done
  echo "ensure-services: $name did not open 127.0.0.1:$port within 30 s" >&2
  return 1
}

if ! port_open 4222; then
  echo "ensure-services: starting NATS with JetStream on 127.0.0.1:4222" >&2
  mkdir -p /var/lib/nats-server
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  wait_port 4222 NATS
fi

if ! port_open 5432; then
  echo "ensure-services: starting PostgreSQL on 127.0.0.1:5432" >&2
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start
  wait_port 5432 PostgreSQL
fi

# The test database may be missing on a machine set up by hand.
if command -v psql >/dev/null && ! psql -h 127.0.0.1 -U postgres -d test -Atc 'select 1' >/dev/null 2>&1; then
  psql -h 127.0.0.1 -U postgres -d postgres -c 'create database test' >/dev/null
fi
echo "ensure-services: NATS and PostgreSQL are up" >&2
