#!/usr/bin/env bash
# `npm run test:loaded`: certify every correct implementation we ship while every core is busy, and
# require the verdict each one gets on a quiet machine. Issue 14's limit: "a loaded machine must not
# make a correct implementation fail". The timing checks (silences, idle windows, held-open
# connections, flushing, timeouts) judge arrival times against the mock's own pauses, so a starved
# scheduler is what could fool them. LOAD_BURNERS sets how many busy processes run beside the
# certifications (default: one per core); extra arguments pick certifications by label substring.
set -uo pipefail
cd "$(dirname "$0")/.."
burners="${LOAD_BURNERS:-$(nproc)}"
case "$burners" in ''|*[!0-9]*) echo "test:loaded: LOAD_BURNERS must be a whole number, got '$burners'" >&2; exit 2 ;; esac
pids=()
stop_burners() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; }
trap stop_burners EXIT
trap 'exit 130' INT TERM
for _ in $(seq 1 "$burners"); do node -e 'for (;;) {}' & pids+=("$!"); done
echo "test:loaded: $burners busy processes beside each certification ($(nproc) cores)"

status=0
ran=0
source scripts/certify-expect.sh
certify() { # label, expected verdict line prefix, CLI arguments...
  if [ -n "$picks" ] && [[ "$1" != *"$picks"* ]]; then return; fi
  ran=$((ran + 1))
  certify_expect test:loaded "$@"
}
picks="${1:-}"

certify 'reference, every part (npm start)' 'fully compliant' start
certify 'Python transformer example' 'fully compliant' run --transformer-cmd 'python3 examples/python-transformer/transformer.py'
certify 'Python client example' 'fully compliant' run --client-cmd 'python3 examples/python-client/client.py'
certify 'Python proxy example' 'fully compliant' run --proxy-cmd 'python3 examples/python-proxy/proxy.py'
certify 'Python audit bridge example' 'fully compliant' run --audit-bridge-cmd 'python3 examples/python-audit-bridge/bridge.py'
if /usr/bin/python3 -c 'import fastapi, uvicorn, httpx, jwt, cryptography' 2>/dev/null; then
  certify 'FastAPI gateway example' 'fully compliant' run --gateway-cmd '/usr/bin/python3 examples/fastapi-gateway/gateway.py'
else
  echo "test:loaded: FastAPI gateway example: skipped, /usr/bin/python3 lacks fastapi, uvicorn, httpx, jwt or cryptography (npm test installs them: scripts/ensure-debian-packages.sh)"
fi
# Every shipped mutant is still caught with exactly its requirement ids under the same load, and
# the reference still passes the smoke runs the mutants get (the timing kills: read timeouts,
# held-back bytes, idle and held-open windows).
if [ -z "$picks" ] || [[ "mutants" == *"$picks"* ]]; then
  ran=$((ran + 1))
  t0=$SECONDS
  # Two workers, as when this limit was set: the config's three beside the burners make 2.5 processes per core.
  if out=$(npx vitest run --maxWorkers=2 harness/mutants 2>&1); then
    echo "test:loaded: mutant suites (harness/mutants): $(echo "$out" | sed 's/\x1b\[[0-9;]*m//g' | grep -E '^ +Tests ' | tr -s ' '), $((SECONDS - t0)) s"
  else
    echo "test:loaded: mutant suites (harness/mutants): FAILED ($((SECONDS - t0)) s); replay: npx vitest run harness/mutants"
    # With the diff's lines (the requirement and status that differ), not only its header.
    echo "$out" | sed 's/\x1b\[[0-9;]*m//g' | grep -E -A14 '(FAIL|AssertionError)' | head -60
    status=1
  fi
fi
if [ "$ran" -eq 0 ]; then echo "test:loaded: no certification's label contains '$picks'" >&2; exit 2; fi
echo "test:loaded: $([ $status -eq 0 ] && echo passed || echo FAILED): $ran certifications with $burners busy processes"
exit $status
