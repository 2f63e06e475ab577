#!/usr/bin/env bash
# `npm run test:deep`: the generated-run laws and the fuzz tests at a large count with a random
# seed, printed first so any failure can be replayed (docs/generated-runs.md). FC_SEED and FC_RUNS
# may be given to pin either; extra arguments go to vitest (e.g. a file or -t 'law name').
set -euo pipefail
cd "$(dirname "$0")/.."
seed="${FC_SEED:-$(node -e 'console.log(Math.floor(Math.random() * 2 ** 31))')}"
runs="${FC_RUNS:-2000}"
case "$seed$runs" in *[!0-9-]*) echo "test:deep: FC_SEED and FC_RUNS must be integers, got FC_SEED=$seed FC_RUNS=$runs" >&2; exit 2 ;; esac
echo "test:deep: fast-check seed $seed, $runs runs per law"
echo "test:deep: replay this whole run with: FC_SEED=$seed FC_RUNS=$runs npm run test:deep"
set +e
FC_SEED="$seed" FC_RUNS="$runs" npx vitest run test/laws test/fuzz "$@"
status=$?
echo "test:deep: fast-check seed $seed, $runs runs per law: $([ $status -eq 0 ] && echo passed || echo FAILED)"
exit $status
