#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (test/browser); does nothing when /usr/bin/chromium is already there.
set -euo pipefail

if [[ -x /usr/bin/chromium ]]; then
  echo "Chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
  exit 0
fi

# Root on CI and the dev machines; elsewhere fall back to sudo.
sudo=""
if [[ "$(id -u)" != 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update
$sudo apt-get install -y --no-install-recommends chromium
echo "Chromium installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
