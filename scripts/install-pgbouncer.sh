#!/usr/bin/env bash
# Installs Debian's PgBouncer for the tests run through a transaction pooler (scripts/with-pgbouncer.sh); does nothing
# when it is there. Only the program is used: the package's own service is left alone (with-pgbouncer.sh runs its own).
exec "$(dirname "${BASH_SOURCE[0]}")/install-debian-package.sh" /usr/sbin/pgbouncer pgbouncer
