"""Code packages for tests: archives built from {path: source}, and trainers/README.md's
complete example (so the documented example is the one the tests run)."""

from __future__ import annotations

import io
import re
import tarfile
import zipfile

from service.settings import REPO_ROOT


def zip_of(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, source in files.items():
            archive.writestr(name, source)
    return buffer.getvalue()


def targz_of(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, source in files.items():
            data = source.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def readme_example() -> str:
    """The ```python block under "### Complete example" in trainers/README.md."""
    text = (REPO_ROOT / "trainers" / "README.md").read_text()
    section = text.split("### Complete example", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match is not None, "trainers/README.md lost its complete example"
    return match.group(1)


def code_spec(package: str, entrypoint: str = "train:train_loop", **changes: object) -> dict:
    """A sweep of user code reporting ``loss`` (min) per ``epoch``."""
    spec: dict = {
        "name": "user-code",
        "code": {
            "package": package,
            "entrypoint": entrypoint,
            "metrics": {"loss": "min", "epoch": "max"},
        },
        "metric": "loss",
        "mode": "min",
        "search_space": {"lr": {"type": "choice", "values": [0.01, 0.05]}},
    }
    spec.update(changes)
    return spec
