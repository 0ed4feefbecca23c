#!/usr/bin/env bash
# Headless Chromium and its driver for the web page's browser tests (tests/web), from Debian's
# packages. Does nothing when both are already installed; needs root or sudo otherwise.
set -euo pipefail
if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
  exit 0
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  as_root=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends chromium chromium-driver
