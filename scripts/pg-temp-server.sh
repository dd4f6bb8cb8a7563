#!/usr/bin/env bash
# A throwaway PostgreSQL server for `make bench`: `start DIR` runs initdb into DIR (as nobody when
# run as root: PostgreSQL refuses root), listens only on a Unix socket in DIR and makes database
# `bench`; `stop DIR` stops it and removes DIR. The tests start their own server from the test code.
set -euo pipefail
cmd=${1:?usage: pg-temp-server.sh start|stop DIR}
dir=${2:?usage: pg-temp-server.sh start|stop DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
as_server() { if [ "$(id -u)" -eq 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi; }
case "$cmd" in
  start)
    [ "$(id -u)" -eq 0 ] && chown 65534:65534 "$dir"
    chmod 700 "$dir"
    (cd / && as_server "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C >/dev/null)
    (cd / && as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-k $dir -c listen_addresses=''" start >/dev/null)
    "$bin/createdb" -h "$dir" -U postgres bench
    ;;
  stop)
    (cd / && as_server "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null) || true
    rm -rf "$dir"
    ;;
  *) echo "usage: pg-temp-server.sh start|stop DIR" >&2; exit 64 ;;
esac
