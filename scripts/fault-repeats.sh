#!/usr/bin/env bash
# Runs the 3-node cluster's "kill the LEDGER stream's leader during a burst" fault test N times
# in a row (default 20), outside CI (which keeps one run), and prints each run's summary line:
# every answer's credits_used against what the stream charged (pending ones confirmed later
# through GET), and reconcile's check of every stored answer.
#   bash scripts/fault-repeats.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
runs="${1:-20}"
log="$(mktemp -d)/fault-repeats"
passed=0
for i in $(seq 1 "$runs"); do
  if (cd test && npx vitest run faults/nats-cluster.faults.spec.ts -t "LEDGER stream's leader" >"$log.$i" 2>&1); then
    passed=$((passed + 1)); verdict=passed
  else
    verdict=FAILED
  fi
  summary="$(grep -o 'LEDGER leader killed: .*' "$log.$i" | head -1 || true)"
  echo "run $i/$runs $verdict: ${summary:-no summary line (see $log.$i)}"
done
echo "$passed of $runs runs passed; logs in $log.*"
[ "$passed" -eq "$runs" ]
