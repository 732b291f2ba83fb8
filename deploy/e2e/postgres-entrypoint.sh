#!/bin/bash
# The official postgres image's entrypoint, as far as docker-compose.yml uses it: on an empty
# PGDATA, a UTF-8 cluster whose superuser is POSTGRES_USER with the password from
# POSTGRES_PASSWORD_FILE, password logins over the network and the database POSTGRES_DB; then
# the command as the postgres user. UTF-8 matters: initdb's default here is SQL_ASCII, which
# SQLAlchemy's psycopg dialect refuses.
set -euo pipefail
user=${POSTGRES_USER:-postgres}
database=${POSTGRES_DB:-$user}
mkdir -p "$PGDATA" /run/postgresql
chown postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  password_file=$(mktemp)
  if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then
    cat "$POSTGRES_PASSWORD_FILE" > "$password_file"
  else
    printf '%s' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE}" > "$password_file"
  fi
  chown postgres "$password_file"
  runuser -u postgres -- initdb -D "$PGDATA" -E UTF8 --locale=C.UTF-8 -U "$user" \
    --pwfile="$password_file" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$password_file"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  runuser -u postgres -- pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "$database" != postgres ]; then
    runuser -u postgres -- psql -v ON_ERROR_STOP=1 -U "$user" -d postgres \
      -c "CREATE DATABASE \"$database\"" >/dev/null
  fi
  runuser -u postgres -- pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec runuser -u postgres -- "$@"
