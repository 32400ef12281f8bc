#!/usr/bin/env bash
# Installs Debian's Go toolchain and the two modules the generated Go SDK imports (golang.org/x/oauth2,
# gopkg.in/validator.v2) for the Go scenario (clients/build.sh go); does nothing for what is already there. Debian's
# module sources land in /usr/share/gocode/src, which clients/build.sh puts on GOPATH: the machines reach no Go proxy.
set -euo pipefail
install="$(dirname "${BASH_SOURCE[0]}")/install-debian-package.sh"
"$install" /usr/bin/go golang-go
# A folder passes the script's `-x` test once the package has put it there.
"$install" /usr/share/gocode/src/golang.org/x/oauth2 golang-golang-x-oauth2-dev
"$install" /usr/share/gocode/src/gopkg.in/validator.v2 golang-gopkg-validator.v2-dev
