#!/usr/bin/env bash
# The HTML report test opens report.html in headless Chromium (Debian's `chromium` package).
# `npm test` runs this first, so a fresh clone needs no hand step: it installs the package when it
# is missing and we may (root, or passwordless sudo), and otherwise says how.
set -u
command -v chromium >/dev/null 2>&1 && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: chromium is missing and apt-get is not available; install Chromium so that 'chromium' is on PATH (test/report-html-browser.test.ts needs it)." >&2
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
  echo "ensure-chromium: chromium is missing; run 'sudo apt-get install -y chromium' (test/report-html-browser.test.ts needs it)." >&2
  exit 0
fi
echo "ensure-chromium: installing Debian's chromium package for the HTML report test..." >&2
$SUDO apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null \
  || echo "ensure-chromium: apt-get could not install chromium; the HTML report test will say how to fix it." >&2
exit 0
