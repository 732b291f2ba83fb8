# raysweep: `make run` starts the service on embedded defaults; `make test` runs lint and the suite.
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP_SERVER := $(VENV)/.installed-server
STAMP_DEV := $(VENV)/.installed-dev

.PHONY: run migrate test lint unit bench clean

$(PY):
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip

$(STAMP_SERVER): pyproject.toml | $(PY)
	$(PIP) install -q -e ".[server]"
	touch $@

$(STAMP_DEV): pyproject.toml | $(PY)
	$(PIP) install -q -e ".[server,dev]"
	touch $@ $(STAMP_SERVER)

migrate: $(STAMP_SERVER)
	$(PY) -m service migrate

run: migrate
	$(PY) -m service serve

lint: $(STAMP_DEV)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

# pytest exits 5 when no test ran; that is a failure here too
test: lint
	$(PY) -m pytest -p no:cacheprovider -ra $(PYTEST_ARGS)

bench: $(STAMP_DEV)
	$(PY) bench/overhead.py
	$(PY) bench/recovery.py

clean:
	rm -rf $(VENV) var
