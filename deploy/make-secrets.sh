#!/usr/bin/env bash
# Writes the secret files docker-compose.yml mounts (./secrets, never committed): a random
# PostgreSQL password, the database URL built from it, and the Ray cluster token. Existing files
# are kept, so running it again changes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
umask 077
mkdir -p secrets
chmod 700 secrets
# no trailing newline: every reader gets exactly the value
random() { python3 -c 'import secrets; print(secrets.token_hex(32), end="")'; }
[ -s secrets/postgres_password ] || random > secrets/postgres_password
[ -s secrets/ray_token ] || random > secrets/ray_token
if [ ! -s secrets/raysweep_database_url ]; then
  printf 'postgresql+psycopg://raysweep:%s@postgres:5432/raysweep' \
    "$(cat secrets/postgres_password)" > secrets/raysweep_database_url
fi
# the containers run as uid 1000 and read the files through bind mounts; the directory
# (mode 700) keeps other users of this host out
chmod 644 secrets/*
echo "secrets written to $(pwd)/secrets (postgres_password, raysweep_database_url, ray_token)"
