#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (test/browser); does nothing when /usr/bin/chromium is already there.
exec "$(dirname "${BASH_SOURCE[0]}")/install-debian-package.sh" /usr/bin/chromium chromium
