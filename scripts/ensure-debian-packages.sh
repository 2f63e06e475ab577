#!/usr/bin/env bash
# `npm test` runs this first (package.json "pretest"), so a fresh clone needs no hand step. It
# installs the Debian packages the tests need, only those that are missing, when it may (root, or
# passwordless sudo); otherwise it says how. It never fails the test run: a test whose package is
# still missing fails with the install command in its own message.
#
# Every Python process the tests start runs on Debian's /usr/bin/python3 (scripts/python-first.ts),
# so the packages the Python examples import are Debian's:
#
#   chromium                        test/report-html-browser.test.ts opens report.html in headless Chromium
#   python3-fastapi python3-uvicorn test/fastapi-gateway.test.ts certifies examples/fastapi-gateway,
#   python3-httpx python3-jwt       seed 004's gateway in its own stack (FastAPI + httpx + PyJWT on
#   python3-cryptography            uvicorn), run by Debian's /usr/bin/python3; cryptography gives
#                                   PyJWT its RS256/ES256 keys
#   python3-requests                examples/calibration/requests-client: seed 004's client on requests
set -u

missing=()
reasons=()
if ! command -v chromium >/dev/null 2>&1; then
  missing+=(chromium)
  reasons+=("chromium for the HTML report test")
fi

# The packages install into Debian's interpreter, which is not necessarily the python3 on PATH.
PY=/usr/bin/python3
py_missing=()
if [ ! -x "$PY" ]; then
  py_missing=(python3 python3-fastapi python3-uvicorn python3-httpx python3-jwt python3-cryptography python3-requests)
else
  for pair in fastapi:python3-fastapi uvicorn:python3-uvicorn httpx:python3-httpx jwt:python3-jwt cryptography:python3-cryptography requests:python3-requests; do
    "$PY" -c "import ${pair%%:*}" >/dev/null 2>&1 || py_missing+=("${pair#*:}")
  done
fi
if [ ${#py_missing[@]} -gt 0 ]; then
  missing+=("${py_missing[@]}")
  reasons+=("${py_missing[*]} for the Python examples the tests certify (examples/fastapi-gateway, examples/calibration/requests-client)")
fi

[ ${#missing[@]} -eq 0 ] && exit 0

why=$(IFS=';'; echo "${reasons[*]}" | sed 's/;/; /g')
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-debian-packages: missing ${missing[*]} ($why), and apt-get is not available here; install the same packages with this system's package manager (Debian/Ubuntu: 'sudo apt-get install -y ${missing[*]}')." >&2
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
  echo "ensure-debian-packages: missing ${missing[*]} ($why); run 'sudo apt-get update && sudo apt-get install -y ${missing[*]}'." >&2
  exit 0
fi

echo "ensure-debian-packages: installing Debian's ${missing[*]} ($why)..." >&2
apt_install() { DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; }
# Try the package lists as they are first; refresh them only when that fails.
if ! apt_install; then
  { $SUDO apt-get update -qq >/dev/null 2>&1 && apt_install; } \
    || echo "ensure-debian-packages: apt-get could not install ${missing[*]}; run 'sudo apt-get update && sudo apt-get install -y ${missing[*]}' (the tests that need them say so too)." >&2
fi
exit 0
