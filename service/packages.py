"""Uploaded training-code packages: checked and normalised to a zip without running any of it.

A package arrives as a zip or a gzipped tar. It is read as an archive only: member names are
checked (no absolute paths, no ``..``, no links or devices), sizes are bounded (a zip bomb is
refused), and every ``.py`` file is *parsed* (``ast.parse`` compiles nothing and imports
nothing) so a spec naming a missing module or one with a syntax error is refused at submit time.
The stored form is always a normalised zip (what Ray's ``runtime_env`` ``working_dir`` takes:
sorted members, fixed timestamps), named by the sha256 of its bytes, so the same files uploaded
as a zip or a tar.gz get the same hash. Module paths are relative to the archive's root.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import io
import lzma
import tarfile
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from raysweep.errors import Problem
from service.errors import InvalidInput

# fixed timestamp for zip entries converted from tar: the same tar gives the same zip and hash
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
UNPACKED_RATIO_LIMIT = 20  # unpacked bytes per uploaded byte, at most (zip-bomb guard)
MAX_MEMBERS = 10_000
# what ast.parse may be given: its memory grows ~100x the source and it can recurse deeply
MAX_PY_FILE_BYTES = 1 << 20
MAX_PY_TOTAL_BYTES = 8 << 20
# top-level modules every worker imports (the service's own, Ray, PyTorch): a package, being
# first on the workers' path, must not shadow them
RESERVED_TOP_LEVEL = ("raysweep", "service", "trainers", "ray", "torch")
# what Python imports as a top-level module from a file: source, bytecode, extensions
MODULE_SUFFIXES = (".py", ".pyc", ".so", ".pyd")


@dataclass(frozen=True)
class CheckedPackage:
    """A package ready to store: its zip bytes, their sha256 and what its Python files say."""

    archive: bytes
    sha256: str
    files: int
    unpacked_bytes: int
    # every .py file -> None when it parses, else the syntax error (file, line, message)
    python_files: dict[str, str | None] = field(default_factory=dict)


def unusable(message: str) -> InvalidInput:
    return InvalidInput("the code package is not usable", [Problem(path="body", message=message)])


def _safe_name(name: str) -> str:
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise unusable(f"member {name!r} points outside the package")
    return str(path)


def _members_of_zip(data: bytes) -> list[tuple[str, bytes]]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as error:
        raise unusable(f"not a valid zip archive: {error}") from None
    infos = [info for info in archive.infolist() if not info.is_dir()]
    _check_counts(len(infos), sum(info.file_size for info in infos), len(data))
    for info in infos:
        if (info.external_attr >> 16) & 0o170000 == 0o120000:
            raise unusable(f"member {info.filename!r} is a symbolic link; links are not allowed")
    try:
        return [(_safe_name(info.filename), archive.read(info)) for info in infos]
    # RuntimeError: an encrypted member; NotImplementedError: an unknown compression method;
    # zlib.error, lzma.LZMAError: a corrupt deflate or LZMA stream (bzip2's is an OSError)
    except (
        zipfile.BadZipFile,
        OSError,
        EOFError,
        RuntimeError,
        NotImplementedError,
        zlib.error,
        lzma.LZMAError,
    ) as error:
        raise unusable(f"the zip archive is damaged or unreadable: {error}") from None


def _members_of_tar(data: bytes) -> list[tuple[str, bytes]]:
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            files = []
            for info in archive.getmembers():
                if info.isdir():
                    continue
                if not info.isfile():
                    raise unusable(f"member {info.name!r} is a link or device; only files allowed")
                files.append(info)
            _check_counts(len(files), sum(info.size for info in files), len(data))
            members = []
            for info in files:
                handle = archive.extractfile(info)
                if handle is None:
                    raise unusable(f"member {info.name!r} cannot be read")
                members.append((_safe_name(info.name), handle.read()))
            return members
    except (tarfile.TarError, gzip.BadGzipFile, EOFError, OSError, zlib.error) as error:
        raise unusable(f"not a valid tar.gz archive: {error}") from None


def _check_counts(count: int, unpacked: int, packed: int) -> None:
    if count == 0:
        raise unusable("the archive holds no files")
    if count > MAX_MEMBERS:
        raise unusable(f"the archive holds {count} files; at most {MAX_MEMBERS} are allowed")
    if unpacked > max(packed, 1 << 16) * UNPACKED_RATIO_LIMIT:
        raise unusable(
            f"the archive unpacks to {unpacked} bytes, over {UNPACKED_RATIO_LIMIT} times its size"
        )


def _syntax_error(name: str, source: bytes) -> str | None:
    try:
        ast.parse(source, filename=name)
    except SyntaxError as error:
        return f"{name}, line {error.lineno}: SyntaxError: {error.msg}"
    except ValueError as error:  # null bytes
        return f"{name}: {error}"
    except (RecursionError, MemoryError):
        return f"{name}: too deeply nested or too large to parse"
    return None


def _check_python_sizes(members: list[tuple[str, bytes]]) -> None:
    sizes = {name: len(content) for name, content in members if name.endswith(".py")}
    too_big = sorted(name for name, size in sizes.items() if size > MAX_PY_FILE_BYTES)
    if too_big:
        raise unusable(
            f"{', '.join(too_big[:5])}: over {MAX_PY_FILE_BYTES} bytes of Python in one file"
        )
    if sum(sizes.values()) > MAX_PY_TOTAL_BYTES:
        raise unusable(f"over {MAX_PY_TOTAL_BYTES} bytes of Python in all; at most that is parsed")


def _to_zip(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in sorted(members):
            archive.writestr(zipfile.ZipInfo(name, date_time=ZIP_EPOCH), content)
    return buffer.getvalue()


def is_zip(data: bytes) -> bool:
    return data[:4] == b"PK\x03\x04"


def is_gzip(data: bytes) -> bool:
    return data[:2] == b"\x1f\x8b"


def refuse_unless_archive(data: bytes) -> None:
    """A body that is no archive by its first bytes is refused here, without a child process."""
    if not (is_zip(data) or is_gzip(data)):
        raise unusable("the body must be a zip or a tar.gz archive")


def top_level_module(path: str) -> str | None:
    """The module a member makes importable at the top level: its folder (a package), or a
    module file's name up to its first dot (``x.cpython-311-x86_64-linux-gnu.so`` is ``x``)."""
    first, slash, _ = path.partition("/")
    if slash:
        return first
    if first.endswith(MODULE_SUFFIXES):
        return first.split(".", 1)[0]
    return None


def check_package(data: bytes) -> CheckedPackage:
    """Read an uploaded zip or tar.gz (told apart by its first bytes) without running it."""
    refuse_unless_archive(data)
    members = _members_of_zip(data) if is_zip(data) else _members_of_tar(data)
    reserved = sorted(
        {
            name
            for name in (top_level_module(path) for path, _ in members)
            if name in RESERVED_TOP_LEVEL
        }
    )
    if reserved:
        raise unusable(
            f"top-level {', '.join(reserved)} would shadow modules the workers import "
            f"({', '.join(RESERVED_TOP_LEVEL)}); rename them"
        )
    _check_python_sizes(members)
    python = {
        name: _syntax_error(name, content) for name, content in members if name.endswith(".py")
    }
    if not python:
        raise unusable("the archive holds no .py files")
    archive = _to_zip(members)  # normalised: the same files give the same bytes and hash
    return CheckedPackage(
        archive=archive,
        sha256=hashlib.sha256(archive).hexdigest(),
        files=len(members),
        unpacked_bytes=sum(len(content) for _, content in members),
        python_files=python,
    )


def module_name(path: str) -> str:
    """``pkg/train.py`` -> ``pkg.train``; ``pkg/__init__.py`` -> ``pkg``."""
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def module_problems(entrypoint: str, python_files: dict[str, str | None]) -> list[str]:
    """What is wrong with ``module:function`` given a package's parsed Python files."""
    module = entrypoint.partition(":")[0]
    base = module.replace(".", "/")
    for candidate in (f"{base}.py", f"{base}/__init__.py"):
        if candidate in python_files:
            error = python_files[candidate]
            return [] if error is None else [f"module {module} does not parse: {error}"]
    known = sorted(module_name(name) for name in python_files)
    shown = ", ".join(known[:20]) + (" ..." if len(known) > 20 else "")
    return [f"the package has no module {module!r}; its modules: {shown}"]
