"""The deployment files: docker-compose.yml validated against the compose specification's JSON
schema (check-jsonschema's vendored copy), and what the compose file and the KubeRay manifest
promise in docs/deploy.md (no Docker engine here: the containers themselves are not started;
tests/engine/test_multi_node.py runs the same topology from the command line)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from service.settings import REPO_ROOT

CHECKER = Path(sys.executable).parent / "check-jsonschema"
COMPOSE = REPO_ROOT / "docker-compose.yml"
SECRET_NAMES = re.compile(r"PASSWORD|TOKEN|DATABASE_URL|SECRET", re.IGNORECASE)


def check_compose(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CHECKER), "--builtin-schema", "vendor.compose-spec", str(path)],
        capture_output=True,
        text=True,
    )


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def test_the_compose_file_satisfies_the_compose_specification(tmp_path: Path) -> None:
    result = check_compose(COMPOSE)
    assert result.returncode == 0, result.stdout + result.stderr
    # the checker really checks: a wrong condition and an unknown key are refused, by path
    broken = compose()
    broken["services"]["raysweep"]["depends_on"]["migrate"]["condition"] = "when_ready"
    broken["services"]["ray-worker"]["replica"] = 3
    (tmp_path / "broken.yml").write_text(yaml.safe_dump(broken))
    refused = check_compose(tmp_path / "broken.yml")
    assert refused.returncode == 1
    assert "when_ready" in refused.stdout and "replica" in refused.stdout


def test_the_compose_deployment_keeps_its_promises() -> None:
    services = compose()["services"]
    assert set(services) == {
        "postgres", "migrate", "ray-head", "ray-worker", "ray-gpu-worker", "raysweep",
    }  # fmt: skip
    # only the API is published; Ray's dashboard/Jobs API and PostgreSQL stay on the network
    assert [name for name, s in services.items() if s.get("ports")] == ["raysweep"]
    server = services["raysweep"]
    # migrations run once, to completion, before the server starts; PostgreSQL is healthy first
    assert server["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
    assert services["migrate"]["command"] == ["python", "-m", "service", "migrate"]
    assert services["migrate"]["depends_on"]["postgres"] == {"condition": "service_healthy"}
    assert "pg_isready" in services["postgres"]["healthcheck"]["test"][1]
    # the server talks to the head's Jobs API on the port the head opens
    head = services["ray-head"]
    assert "--dashboard-port=8265" in head["command"]
    assert server["environment"]["RAYSWEEP_RAY_ADDRESS"] == "http://ray-head:8265"
    assert "--address=ray-head:6379" in services["ray-worker"]["command"]
    # one shared storage volume for the server and every Ray node; token auth everywhere
    for name in ("raysweep", "ray-head", "ray-worker", "ray-gpu-worker"):
        service = services[name]
        assert "storage:/data/storage" in service["volumes"], name
        assert service["environment"]["RAY_AUTH_MODE"] == "token", name
        assert service["environment"]["RAY_AUTH_TOKEN_PATH"] == "/run/secrets/ray_token"
        assert "ray_token" in service["secrets"], name
    # the Ray nodes run members' code: no database URL, nor a secrets directory holding it;
    # the server tells their jobs where its API is, which they store everything through
    assert "raysweep_database_url" in server["secrets"]
    for name in ("ray-head", "ray-worker", "ray-gpu-worker"):
        assert services[name]["secrets"] == ["ray_token"], name
        assert not {"RAYSWEEP_SECRETS_DIR", "RAYSWEEP_DATABASE_URL"} & set(
            services[name]["environment"]
        ), name
    assert server["environment"]["RAYSWEEP_API_URL"] == "http://raysweep:8000"
    # secrets only as files: no secret value in any environment
    for name, service in services.items():
        for key, value in (service.get("environment") or {}).items():
            if SECRET_NAMES.search(key) and key != "RAY_AUTH_MODE":
                assert str(value).startswith("/run/secrets"), (name, key)
    assert set(compose()["secrets"]) == {"postgres_password", "raysweep_database_url", "ray_token"}
    # GPU workers are opt-in, with a device reservation and the CUDA build
    gpu = services["ray-gpu-worker"]
    assert gpu["profiles"] == ["gpu"]
    assert gpu["deploy"]["resources"]["reservations"]["devices"][0]["capabilities"] == ["gpu"]
    assert "nvidia/cuda" in gpu["build"]["args"]["BASE_IMAGE"]


def test_the_image_bakes_in_no_secret_and_takes_its_base_as_an_argument() -> None:
    dockerfile = (REPO_ROOT / "Dockerfile").read_text()
    assert re.search(r"^ARG BASE_IMAGE=python:3\.11", dockerfile, re.MULTILINE)
    assert re.search(r"^FROM \$\{BASE_IMAGE\}$", dockerfile, re.MULTILINE)
    env_lines = [line for line in dockerfile.splitlines() if re.match(r"\s*(ENV|ARG)\b", line)]
    env_keys = [k for line in env_lines for k in re.findall(r"([A-Z_]+)=", line)]
    assert not [k for k in env_keys if SECRET_NAMES.search(k)]
    ignored = (REPO_ROOT / ".dockerignore").read_text().split()
    assert {"secrets", ".git", ".venv", "var"} <= set(ignored)


def test_a_build_behind_a_tls_intercepting_proxy_trusts_its_ca_before_apt_fetches() -> None:
    """The header promises the build secret's CA for apt, pip and npm: each must see it before
    its first fetch (no engine here to build the image: `make deploy-test` does)."""
    dockerfile = (REPO_ROOT / "Dockerfile").read_text()
    web_stage, final_stage = dockerfile.split("FROM ${BASE_IMAGE}")
    assert web_stage.index("NODE_EXTRA_CA_CERTS") < web_stage.index("npm install")
    trusted = final_stage.index("/usr/local/share/ca-certificates/extra-ca.crt")
    assert trusted < final_stage.index("apt-get update")
    assert final_stage.index("/etc/pip.conf") < final_stage.index("pip install")


def test_the_kuberay_manifest_gives_every_group_rays_token_and_storage_never_the_database() -> None:
    manifest = yaml.safe_load((REPO_ROOT / "deploy" / "kuberay-raycluster.yaml").read_text())
    assert manifest["apiVersion"] == "ray.io/v1" and manifest["kind"] == "RayCluster"
    groups = [manifest["spec"]["headGroupSpec"], *manifest["spec"]["workerGroupSpecs"]]
    assert [g.get("groupName", "head") for g in groups] == ["head", "cpu", "gpu"]
    for group in groups:
        [container] = group["template"]["spec"]["containers"]
        env = {e["name"]: e["value"] for e in container["env"]}
        assert env["RAY_AUTH_MODE"] == "token" and "RAYSWEEP_SECRETS_DIR" not in env
        mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
        token_dir = env["RAY_AUTH_TOKEN_PATH"].rsplit("/", 1)[0]
        assert {token_dir, env["RAYSWEEP_STORAGE_URI"]} <= set(mounts)
        [secret] = [
            v for v in group["template"]["spec"]["volumes"] if v["name"] == mounts[token_dir]
        ]
        assert secret["secret"]["secretName"] == "raysweep-ray-token"  # Ray's token alone
    gpu = groups[2]["template"]["spec"]["containers"][0]
    assert gpu["resources"]["limits"]["nvidia.com/gpu"] == "1"
