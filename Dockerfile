# One image for the raysweep server, the Ray head and the Ray workers (sweep drivers, final runs
# and trainers run on the Ray nodes, so they need raysweep and the same Python as the server).
#
#   CPU (default): docker build -t raysweep .
#   GPU:           docker build -t raysweep:cuda \
#                    --build-arg BASE_IMAGE=nvidia/cuda:12.6.3-cudnn-runtime-ubuntu24.04 \
#                    --build-arg TORCH_INDEX_URL=https://download.pytorch.org/whl/cu126 .
#
#   Behind a TLS-intercepting proxy: pass its CA certificates (one PEM file) as a build secret;
#   the image then trusts them for apt, pip and npm, and at run time:
#                  docker build --secret id=extra_ca_certs,src=/path/to/proxy-ca.pem -t raysweep .
#
# No secret is baked in: the database URL, the Ray token and cluster tokens come at run time
# from secret files (RAYSWEEP_SECRETS_DIR, RAY_AUTH_TOKEN_PATH) or the environment.
# deploy/e2e.sh builds with local stand-ins for both bases (no image registry there).
ARG BASE_IMAGE=python:3.11-slim-bookworm
ARG WEB_BASE_IMAGE=node:22-bookworm-slim

FROM ${WEB_BASE_IMAGE} AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN --mount=type=secret,id=extra_ca_certs \
    if [ -s /run/secrets/extra_ca_certs ]; then \
      export NODE_EXTRA_CA_CERTS=/run/secrets/extra_ca_certs; \
    fi \
    && npm install --no-audit --no-fund
COPY web/ ./
RUN npm run build

FROM ${BASE_IMAGE}
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VIRTUAL_ENV=/opt/raysweep/venv \
    PATH=/opt/raysweep/venv/bin:$PATH
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# a CUDA base has no Python of its own; git records a final run's code version. Versions are
# not pinned: the packages come from whichever distribution the base image is. Extra CA
# certificates join the system store before apt's first fetch (a base without the
# ca-certificates package gets them appended to the bundle apt reads; installing the package
# then rebuilds the bundle with them), and pip is told to use it (its own bundle lacks them).
# hadolint ignore=DL3008
RUN --mount=type=secret,id=extra_ca_certs \
    if [ -s /run/secrets/extra_ca_certs ]; then \
      mkdir -p /usr/local/share/ca-certificates /etc/ssl/certs \
      && cp /run/secrets/extra_ca_certs /usr/local/share/ca-certificates/extra-ca.crt \
      && if command -v update-ca-certificates >/dev/null; then update-ca-certificates; \
         else cat /run/secrets/extra_ca_certs >> /etc/ssl/certs/ca-certificates.crt; fi \
      && printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' > /etc/pip.conf; \
    fi \
    && apt-get update \
    && apt-get install -y --no-install-recommends git ca-certificates \
    && if ! command -v python3 >/dev/null; then \
         apt-get install -y --no-install-recommends python3 python3-venv; \
       fi \
    && rm -rf /var/lib/apt/lists/* \
    && python3 -m venv "$VIRTUAL_ENV"

WORKDIR /opt/raysweep/app
# dependencies first, so a source change does not reinstall torch and Ray
# (at the versions of the Python lock, constraints.txt, as `make` installs them)
COPY pyproject.toml setup.py README.md constraints.txt ./
RUN mkdir -p raysweep service trainers \
    && touch raysweep/__init__.py service/__init__.py trainers/__init__.py \
    && pip install --extra-index-url "$TORCH_INDEX_URL" -c constraints.txt -e ".[server]"
COPY raysweep/ raysweep/
COPY service/ service/
COPY trainers/ trainers/
COPY migrations/ migrations/
COPY search_spaces/ search_spaces/
COPY --from=web /src/web/dist web/dist

# uid 1000 may exist already (Ubuntu-based CUDA images ship the user "ubuntu" with it): the
# image then runs as that user rather than failing to build
RUN if ! getent passwd 1000 >/dev/null; then useradd --create-home --uid 1000 raysweep; fi \
    && mkdir -p /data/home /data/storage \
    && chown -R 1000 /data
USER 1000
ENV RAYSWEEP_HOME=/data/home \
    RAYSWEEP_STORAGE_URI=/data/storage \
    RAYSWEEP_HOST=0.0.0.0
EXPOSE 8000
CMD ["python", "-m", "service", "serve"]
