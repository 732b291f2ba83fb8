"""The Python lock (constraints.txt) covers every dependency pyproject.toml names, at versions
those requirements accept, and is what this environment was installed from."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

REPO = Path(__file__).resolve().parents[1]


def locked() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in (REPO / "constraints.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, _, version = line.partition("==")
        assert version, f"constraints.txt: {line!r} is not an exact pin"
        pins[canonicalize_name(name)] = Version(version)
    return pins


def declared() -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"].values()
    return [Requirement(r) for r in [*project["dependencies"], *(r for e in extras for r in e)]]


def test_the_lock_pins_every_declared_dependency_at_a_version_it_accepts() -> None:
    pins = locked()
    problems = []
    for requirement in declared():
        pin = pins.get(canonicalize_name(requirement.name))
        if pin is None:
            problems.append(f"{requirement.name}: not in constraints.txt")
        elif not requirement.specifier.contains(pin, prereleases=True):
            problems.append(f"{requirement}: constraints.txt pins {pin}")
    assert not problems, "run `make lock`: " + "; ".join(problems)


def test_this_environment_was_installed_from_the_lock() -> None:
    drifted = []
    for name, pin in locked().items():
        try:
            installed = Version(metadata.version(name))
        except metadata.PackageNotFoundError:
            continue  # another platform's package
        if installed.public != pin.public:  # torch's +cpu build satisfies torch==2.13.0
            drifted.append(f"{name} {installed} (locked {pin})")
    assert not drifted, "reinstall with `make` (it installs with -c constraints.txt): " + ", ".join(
        drifted
    )
