# raysweep: `make run` starts the service on embedded defaults; `make test` runs lint and the suite.
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP_SERVER := $(VENV)/.installed-server
STAMP_DEV := $(VENV)/.installed-dev
# the Python lock (constraints.txt): every install below takes its versions from it
LOCK := constraints.txt

WEB_SOURCES := $(shell find web/src -type f 2>/dev/null) web/index.html web/vite.config.ts web/tsconfig.json

.PHONY: run migrate test test-fast lint lock web web-test bench bench-scale chromium clean deploy-test

$(PY):
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip

$(STAMP_SERVER): pyproject.toml $(LOCK) | $(PY)
	$(PIP) install -q -c $(LOCK) -e ".[server]"
	touch $@

$(STAMP_DEV): pyproject.toml $(LOCK) | $(PY)
	$(PIP) install -q -c $(LOCK) -e ".[server,dev]"
	touch $@ $(STAMP_SERVER)

# the lock again, after pyproject.toml's dependencies changed: what pip resolves for them today,
# in a new virtual environment (a few minutes); then `make test`, and commit both
lock:
	rm -rf $(VENV)-lock && python3 -m venv $(VENV)-lock
	$(VENV)-lock/bin/pip install -q --upgrade pip
	$(VENV)-lock/bin/pip install -q -e ".[server,dev]"
	{ sed -n '/^#/p' $(LOCK); $(VENV)-lock/bin/pip freeze --exclude-editable \
	  | sed 's/^torch==\([^+]*\)+.*/torch==\1/'; } > $(LOCK).new
	mv $(LOCK).new $(LOCK) && rm -rf $(VENV)-lock

# the web UI: npm packages at the versions package-lock.json pins, built into web/dist (not
# committed). `npm install`, not `npm ci`: npm 11 leaves other platforms' optional rollup
# binaries out of the lock file and then `npm ci` refuses it.
web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && npm install --no-audit --no-fund
	touch $@

# the API's types for the UI, generated (both files committed; tests/test_web_types.py fails
# while they are stale): the API's OpenAPI document, which depends on the Python code and its
# locked packages only (the same bytes on every machine), then openapi-typescript's TypeScript
API_SOURCES := $(shell find raysweep service -name '*.py' 2>/dev/null) devkit/openapi_document.py

web/openapi.json: $(STAMP_SERVER) $(API_SOURCES)
	$(PY) -m devkit.openapi_document $@

web/src/api-schema.ts: web/openapi.json web/scripts/api-schema.mjs web/node_modules/.installed
	cd web && node scripts/api-schema.mjs openapi.json src/api-schema.ts

web/dist/index.html: web/node_modules/.installed web/src/api-schema.ts $(WEB_SOURCES)
	cd web && npm run build

web: web/dist/index.html

web-test: web/node_modules/.installed
	cd web && npm test

migrate: $(STAMP_SERVER)
	$(PY) -m service migrate

run: migrate web
	$(PY) -m service serve

lint: $(STAMP_DEV)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy raysweep trainers service devkit
	$(VENV)/bin/hadolint Dockerfile

# pytest exits 5 when no test ran; that is a failure here too. Two xdist workers: the Ray tests
# on one (tests/conftest.py groups them), everything else on the other; the slowest 25 printed.
PYTEST := $(PY) -m pytest -p no:cacheprovider -ra --durations=25 -n 2 --dist loadgroup
test: lint web web-test
	$(PYTEST) $(PYTEST_ARGS)

# the inner loop: no Ray, no browser (a few minutes); CI runs `make test`
test-fast: $(STAMP_DEV)
	$(PYTEST) -m "not ray and not ui" $(PYTEST_ARGS)

# the image built and the compose stack run end to end with podman (deploy/e2e.sh): ~6 min on
# 2 cores with no image yet (as root it installs podman and bootstraps local bases), ~3 after
deploy-test: $(STAMP_DEV)
	@command -v podman >/dev/null && command -v debootstrap >/dev/null || { \
	  [ "$$(id -u)" = 0 ] && apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -qq podman buildah runc debootstrap >/dev/null; } \
	  || { echo "deploy-test needs podman, buildah, runc and debootstrap" >&2; exit 1; }
	$(PIP) install -q 'podman-compose==1.6.0'
	deploy/e2e.sh

# Debian's Chromium for bench/ui_scale.py (the UI tests install it through .ci/run)
chromium:
	@[ -x /usr/bin/chromium ] || { [ "$$(id -u)" = 0 ] && apt-get update -qq \
	  && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
	  || { echo "bench/ui_scale.py needs /usr/bin/chromium: apt-get install chromium" >&2; exit 1; }

# every benchmark on a fresh checkout: the dev install, the built UI and Chromium first
bench: $(STAMP_DEV) web chromium
	$(PY) bench/overhead.py
	$(PY) bench/startup.py
	$(PY) bench/trial_logs.py
	$(PY) bench/recovery.py
	$(PY) bench/ui_scale.py
	$(PY) bench/recorder.py
	$(PY) bench/api_load.py
	$(PY) bench/api_load.py --api-workers 2
	$(PY) bench/api_load.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test
	$(PY) bench/api_load.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test --api-workers 2
	$(PY) bench/views_load.py
	$(PY) bench/scaling.py
	$(PY) bench/asha_efficiency.py
	$(PY) bench/pbt.py
	$(PY) bench/searcher.py
	$(PY) bench/amp_gpu.py

# on a machine with a GPU (bench/gpu_proof.py says how it ran on one without the server's
# packages installed): DDP on the GPU, mixed precision, a sweep, a killed worker, a promotion
bench-gpu: $(STAMP_DEV)
	$(PY) bench/gpu_proof.py

# the API and the UI at 100,000 trials x 100 results (10M result rows) on both databases:
# seeding takes 2-4 minutes a database; the databases stay (SCALE_SQLITE, SCALE_POSTGRES) for
# reruns of the two benches with --database
SCALE_SQLITE ?= sqlite:///$(CURDIR)/var/bench/scale100k.db
SCALE_POSTGRES ?= postgresql+psycopg://postgres@127.0.0.1:5432/raysweep_scale100k
bench-scale: $(STAMP_DEV) web chromium
	for url in $(SCALE_SQLITE) $(SCALE_POSTGRES); do \
	  $(PY) bench/seed_scale.py --database $$url --if-missing && \
	  $(PY) bench/api_load.py --database $$url && \
	  $(PY) bench/api_load.py --database $$url --api-workers 2 && \
	  $(PY) bench/ui_scale.py --database $$url || exit 1; \
	done

clean:
	rm -rf $(VENV) var web/node_modules web/dist
