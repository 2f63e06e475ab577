# Sourced by scripts/test-deep.sh and scripts/test-loaded.sh: `certify_expect PREFIX LABEL EXPECTED
# ARGS...` runs `adk-conformance ARGS... --out TMP` and requires its verdict line to start with
# `verdict: EXPECTED`. It prints one line either way (with the replay command when it failed, then
# the failing lines), and sets status=1 on a failure.
certify_expect() {
  local prefix="$1" label="$2" expected="$3"; shift 3
  local out; out=$(mktemp -d)
  local t0=$SECONDS
  node bin/adk-conformance.js "$@" --out "$out" >"$out/log" 2>&1
  local code=$?
  local line; line=$(grep '^verdict' "$out/log" | tail -1)
  if [[ "$line" == "verdict: $expected"* ]]; then
    echo "$prefix: $label: $line, exit $code, $((SECONDS - t0)) s"; rm -rf "$out"
  else
    echo "$prefix: $label: FAILED: ${line:-no verdict} (exit $code, $((SECONDS - t0)) s); replay: npx adk-conformance $*"
    grep -E '^(FAIL|UNTESTED|  )' "$out/log" | head -20
    echo "$prefix: the whole output and reports are in $out"
    status=1
  fi
}
