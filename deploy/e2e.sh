#!/usr/bin/env bash
# The deployment end to end with podman (`make deploy-test`): builds the image, starts the compose
# stack (PostgreSQL, migrate, a Ray head, one Ray worker, the server) with podman-compose, then
# through the published API (deploy/e2e_api.py) runs a small sweep, promotes it, checks the model
# version and /metrics, kills the Ray worker container in a second sweep and sees that sweep
# complete after `up`, and tears it all down with its volumes. Prints the build time, the image
# size and each step's time.
#
# Needs podman, runc and podman-compose (and debootstrap for the local bases); the venv's Python
# with the raysweep SDK. Settings (environment):
#   E2E_BASE_IMAGE, E2E_WEB_BASE_IMAGE, E2E_POSTGRES_IMAGE  images to use as they are; each one
#       not given is built locally (no registry needed): a Debian bookworm base from debootstrap
#       (E2E_DEBIAN_MIRROR), Debian's Node.js on it for the web stage, Debian's PostgreSQL 15
#   E2E_EXTRA_CA      a PEM file of extra CA certificates for the build (default: the host's
#                     /usr/local/share/ca-certificates/*.crt, when there are any)
#   E2E_TORCH_WHEELS  a folder holding a torch CPU wheel, served on 127.0.0.1 as the build's
#                     TORCH_INDEX_URL (default /opt/wheels when it holds one; else the public
#                     CPU index)
#   E2E_PORT          the published API port (default 18000)
#   E2E_KEEP=1        leave the stack running at the end (for a look; `podman-compose -p
#                     raysweep-e2e down -v` removes it)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
project=raysweep-e2e
work=${E2E_WORK:-/var/tmp/raysweep-e2e}
port=${E2E_PORT:-18000}
python=${PYTHON:-$root/.venv/bin/python}
compose_cmd=${PODMAN_COMPOSE:-$(dirname "$python")/podman-compose}
image=localhost/raysweep:e2e
mkdir -p "$work"

started=$(date +%s)
last=$started
step() {  # step NAME: prints the time since the previous step
  local now
  now=$(date +%s)
  printf '[e2e] %-44s %4ss  (total %ss)\n' "$1" "$((now - last))" "$((now - started))"
  last=$now
}
say() { printf '[e2e] %s\n' "$*"; }

# podman here: runc (crun refuses the hybrid cgroup setup of these machines) and fixed limits
# (raising them is not permitted in this sandbox); elsewhere set CONTAINERS_CONF yourself
if [ -z "${CONTAINERS_CONF:-}" ]; then
  cat > "$work/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
CONF
  export CONTAINERS_CONF="$work/containers.conf"
fi

# podman-compose's own chatter (and podman's complaints that there is no systemd to run
# healthchecks: the script waits itself) goes to a log
compose() { "$compose_cmd" -p "$project" -f "$root/docker-compose.yml" "$@" 2>>"$work/compose.log"; }
container() { podman ps -aq --filter "label=io.podman.compose.project=$project" \
  --filter "label=com.docker.compose.service=$1" | head -1; }
wait_until() {  # wait_until SECONDS WHAT COMMAND...: retries COMMAND every 2 s
  local limit=$1 what=$2 deadline=$(($(date +%s) + $1))
  shift 2
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      say "gave up after ${limit}s waiting for $what"
      return 1
    fi
    sleep 2
  done
}

cleanup() {
  local rc=$?
  if [ -n "${server_pid:-}" ]; then kill "$server_pid" 2>/dev/null || true; fi
  if [ "$rc" -ne 0 ] && [ -n "${postgres_image:-}" ]; then
    say "failed (exit $rc); the last lines of each container's log:"
    for service in postgres migrate ray-head ray-worker raysweep; do
      id=$(container "$service")
      [ -n "$id" ] && { echo "--- $service"; podman logs --tail 30 "$id" 2>&1 || true; }
    done
  fi
  if [ "${E2E_KEEP:-0}" != 1 ] && [ -n "${postgres_image:-}" ]; then
    compose down -v >/dev/null 2>&1 || true
    step "down -v (containers, network, volumes)"
  fi
  exit "$rc"
}
trap cleanup EXIT

# --- the bases ------------------------------------------------------------------------------
debian_image=localhost/raysweep-debian:bookworm
if [ -z "${E2E_BASE_IMAGE:-}" ] || [ -z "${E2E_WEB_BASE_IMAGE:-}" ] \
    || [ -z "${E2E_POSTGRES_IMAGE:-}" ]; then
  if ! podman image exists "$debian_image"; then
    rm -rf "$work/rootfs"
    debootstrap --variant=minbase --include=ca-certificates bookworm "$work/rootfs" \
      "${E2E_DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$work/debootstrap.log" 2>&1 \
      || { tail -20 "$work/debootstrap.log"; exit 1; }
    tar -C "$work/rootfs" -c . | podman import --change 'CMD ["/bin/bash"]' - "$debian_image" >/dev/null
    rm -rf "$work/rootfs"
  fi
  step "local Debian base ($debian_image)"
fi
base_image=${E2E_BASE_IMAGE:-$debian_image}
web_base_image=${E2E_WEB_BASE_IMAGE:-localhost/raysweep-node:bookworm}
postgres_image=${E2E_POSTGRES_IMAGE:-localhost/raysweep-postgres:15}
# what docker-compose.yml reads (deploy/e2e_api.py's `up` of the worker reads them too)
export RAYSWEEP_IMAGE=$image POSTGRES_IMAGE=$postgres_image RAYSWEEP_PORT=$port \
  RAY_WORKER_CPUS=${E2E_WORKER_CPUS:-2}
for standin in node postgres; do
  tag=$web_base_image
  [ "$standin" = postgres ] && tag=$postgres_image
  if [[ $tag == localhost/raysweep-* ]] && ! podman image exists "$tag"; then
    podman build -q --network host --build-arg "BASE_IMAGE=$debian_image" -t "$tag" \
      -f "deploy/e2e/$standin.Containerfile" deploy/e2e >/dev/null
    step "stand-in $tag"
  fi
done

# --- the image ------------------------------------------------------------------------------
# docker format: OCI images have no SHELL, which the Dockerfile sets (bash with pipefail)
build_args=(--format docker --network host --build-arg "BASE_IMAGE=$base_image"
  --build-arg "WEB_BASE_IMAGE=$web_base_image")
extra_ca=${E2E_EXTRA_CA:-}
if [ -z "$extra_ca" ] && compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  extra_ca=$work/extra-ca.pem
  cat /usr/local/share/ca-certificates/*.crt > "$extra_ca"
fi
[ -n "$extra_ca" ] && build_args+=(--secret "id=extra_ca_certs,src=$extra_ca")
wheels=${E2E_TORCH_WHEELS:-/opt/wheels}
if compgen -G "$wheels/torch-*.whl" >/dev/null; then
  # pip reads an index from a directory listing: http.server's is one (loopback counts as secure)
  rm -rf "$work/index" && mkdir -p "$work/index/torch"
  ln -s "$wheels"/torch-*.whl "$work/index/torch/"
  index_port=${E2E_INDEX_PORT:-18765}
  "$python" -m http.server --bind 127.0.0.1 --directory "$work/index" "$index_port" \
    >"$work/index.log" 2>&1 &
  server_pid=$!
  build_args+=(--build-arg "TORCH_INDEX_URL=http://127.0.0.1:$index_port/")
fi
say "podman build ${build_args[*]} -t $image ."
if ! podman build "${build_args[@]}" -t "$image" . >"$work/build.log" 2>&1; then
  tail -40 "$work/build.log"
  exit 1
fi
[ -n "${server_pid:-}" ] && { kill "$server_pid"; server_pid=; }
podman image prune -f >/dev/null  # the layers an earlier build of the tag left behind
step "image built"
say "image size: $(podman image inspect "$image" --format '{{.Size}}' \
  | awk '{printf "%.2f GB", $1 / 1e9}')"

# --- the stack ------------------------------------------------------------------------------
deploy/make-secrets.sh >/dev/null
compose down -v >/dev/null 2>&1 || true  # what an interrupted run left
# one service at a time: podman 4.3 ignores `condition: service_healthy` and trips over
# chained depends_on, so this waits for each itself
compose up -d --no-deps postgres >/dev/null
wait_until 120 "PostgreSQL" podman exec "$(container postgres)" pg_isready -U raysweep -d raysweep
step "postgres ready"
compose up -d --no-deps migrate >/dev/null
migrate_exit=$(podman wait "$(container migrate)")
[ "$migrate_exit" = 0 ] || { say "migrate exited $migrate_exit"; exit 1; }
step "migrations applied"
compose up -d --no-deps ray-head >/dev/null
wait_until 180 "the Ray head" podman exec "$(container ray-head)" \
  ray health-check --address localhost:6379
compose up -d --no-deps --scale ray-worker=1 ray-worker >/dev/null
step "Ray head and one worker up"
compose up -d --no-deps raysweep >/dev/null
wait_until 180 "the server's /healthz" curl -fsS "http://127.0.0.1:$port/healthz"
step "server answers /healthz"

token=$(podman exec "$(container raysweep)" cat /data/home/admin-token)
worker=$(container ray-worker)
RAYSWEEP_URL=http://127.0.0.1:$port RAYSWEEP_TOKEN=$token "$python" deploy/e2e_api.py \
  --kill-worker "podman kill $worker" \
  --start-worker "$compose_cmd -p $project -f $root/docker-compose.yml up -d --no-deps ray-worker"
step "API steps (deploy/e2e_api.py)"
