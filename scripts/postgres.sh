#!/usr/bin/env bash
# Start (or stop) a throwaway PostgreSQL server for the tests, on 127.0.0.1:${PGPORT:-55432}.
# Installs Debian's postgresql if it is missing. Prints the database URL to use.
#   scripts/postgres.sh start   ->  postgresql+psycopg://arena:arena@127.0.0.1:55432/arena
#   scripts/postgres.sh stop
set -euo pipefail
PGPORT=${PGPORT:-55432}
PGDATA=${PGDATA_DIR:-/tmp/tarot-arena-pg}
URL="postgresql+psycopg://arena:arena@127.0.0.1:${PGPORT}/arena"

bindir() {
  if command -v pg_ctl >/dev/null 2>&1; then dirname "$(readlink -f "$(command -v pg_ctl)")"; return; fi
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-start}" in
  start)
    if [ -z "$(bindir)" ]; then
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq >/dev/null
      apt-get install -y -qq postgresql >/dev/null
    fi
    BIN=$(bindir)
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
      useradd --system --home /var/lib/postgresql postgres
    fi
    if as_postgres "$BIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; then
      echo "$URL"; exit 0
    fi
    rm -rf "$PGDATA"; mkdir -p "$PGDATA"
    [ "$(id -u)" = 0 ] && chown postgres "$PGDATA"
    as_postgres "$BIN/initdb" -D "$PGDATA" -U postgres --auth=trust >/dev/null
    as_postgres "$BIN/pg_ctl" -D "$PGDATA" -l "$PGDATA/server.log" -w \
      -o "-p $PGPORT -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" \
      start >/dev/null
    as_postgres "$BIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -q -c \
      "CREATE ROLE arena LOGIN PASSWORD 'arena' CREATEDB" >/dev/null
    # The tests drop their databases WITH (FORCE), which ends the autovacuum worker that may be
    # on one; without this role that fails ("must be a member of the role whose process is
    # being terminated or member of pg_signal_backend").
    as_postgres "$BIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -q -c \
      "GRANT pg_signal_backend TO arena" >/dev/null
    as_postgres "$BIN/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -q -c \
      "CREATE DATABASE arena OWNER arena" >/dev/null
    echo "$URL"
    ;;
  stop)
    BIN=$(bindir)
    as_postgres "$BIN/pg_ctl" -D "$PGDATA" -m fast stop >/dev/null 2>&1 || true
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
