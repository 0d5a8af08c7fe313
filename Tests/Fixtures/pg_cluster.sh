#!/bin/sh
# A throwaway PostgreSQL cluster for the tests: initdb into a temporary folder (as the postgres
# user when run as root: the server refuses to run as root), trust authentication on loopback
# (but scram-sha-256 for the role `almanac_password`, so tests can fail a password), the port
# given as $1, the socket in a private folder. Prints "ready FOLDER" once the server accepts
# connections, then waits for its standard input to close — when the test process that started
# it ends, however it ends — and stops the server and removes the folder.
set -eu
port=$1
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ]; then
    echo "no PostgreSQL server in /usr/lib/postgresql/*/bin (scripts/install-deps installs Debian's postgresql)" >&2
    exit 1
fi
folder=$(mktemp -d /tmp/almanac-pg.XXXXXX)
chmod 755 "$folder"
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
stop() {
    as_owner "$bin/pg_ctl" -D "$folder/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$folder"
}
trap stop EXIT
trap 'exit 1' INT TERM HUP
mkdir "$folder/data" "$folder/socket"
[ "$(id -u)" -ne 0 ] || chown postgres "$folder/data" "$folder/socket"
if ! as_owner "$bin/initdb" -D "$folder/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 --no-sync \
        >"$folder/initdb.log" 2>&1; then
    cat "$folder/initdb.log" >&2
    exit 1
fi
# First match wins: the password role first, everyone else trusted.
hba="$folder/data/pg_hba.conf"
{
    echo "local all all trust"
    echo "host all almanac_password 127.0.0.1/32 scram-sha-256"
    echo "host all all 127.0.0.1/32 trust"
} >"$hba"
if ! as_owner "$bin/pg_ctl" -D "$folder/data" -l "$folder/data/server.log" -w -t 60 \
        -o "-p $port -k $folder/socket -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=32MB -c max_connections=40" \
        start >/dev/null 2>&1; then
    cat "$folder/data/server.log" >&2 || true
    exit 1
fi
echo "ready $folder"
cat >/dev/null
