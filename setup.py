"""What the wheel carries besides the Python packages: the server's migrations, the named search
spaces and, once built (``make web``), the web UI, each as data inside the ``service`` package,
where ``service.settings.bundled`` finds them on a machine without a checkout. The rest of the
project's metadata is in pyproject.toml."""

from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).parent
PACKAGES = find_packages(include=["raysweep*", "service*", "trainers*"])
# package -> (its directory in the checkout, the files it carries); a directory not there (the
# Dockerfile's dependency layer, a checkout without `make web`) is left out
DATA = {
    package: (directory, patterns)
    for package, directory, patterns in (
        ("service.migrations", "migrations", ["*.py", "*.mako"]),
        ("service.migrations.versions", "migrations/versions", ["*.py"]),
        ("service.search_spaces", "search_spaces", ["*.yaml", "*.yml", "*.json"]),
        ("service.web", "web/dist", ["*"]),
        ("service.web.assets", "web/dist/assets", ["*"]),
    )
    if (ROOT / directory).is_dir()
}
if "service.web" not in DATA:  # the API works without it; `/` says how to build it
    print("setup.py: web/dist is not built (`make web`); the package will carry no web UI")

setup(
    packages=PACKAGES + list(DATA),
    package_dir={package: directory for package, (directory, _) in DATA.items()},
    package_data={
        "raysweep": ["py.typed"],
        **{package: patterns for package, (_, patterns) in DATA.items()},
    },
)
