#!/usr/bin/env bash
# The console's browser tests (test/console.e2e-spec.ts) drive Debian's Chromium: install
# it when it is missing (npm test and .ci/run call this). CHROMIUM_PATH names another.
set -euo pipefail
if [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then exit 0; fi
echo "No Chromium at ${CHROMIUM_PATH:-/usr/bin/chromium}: installing Debian's chromium"
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
