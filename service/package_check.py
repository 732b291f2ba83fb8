"""Package checks in a child process with a memory and a time limit: a hostile archive or
``.py`` file (a decompression bomb, a parser-exhausting expression) costs that child, never the
server's memory or its event loop. ``python -m service.package_check`` is the child: the archive
on stdin; on stdout a JSON line (the result, or the problem) and then the normalised zip."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import threading
from dataclasses import asdict

from raysweep.errors import Problem
from service.errors import InvalidInput
from service.packages import CheckedPackage, check_package, refuse_unless_archive, unusable
from service.settings import REPO_ROOT

TIME_LIMIT_S = 30
MEMORY_LIMIT_BYTES = 1 << 30
# checks at once; more uploads wait their turn in the server's thread pool
CONCURRENT_CHECKS = threading.BoundedSemaphore(2)
OUT_OF_MEMORY = 3


def check_isolated(data: bytes) -> CheckedPackage:
    """``check_package`` in a child process; its problems raised here as ``InvalidInput``."""
    refuse_unless_archive(data)
    with CONCURRENT_CHECKS:
        try:
            done = subprocess.run(
                [sys.executable, "-m", "service.package_check"],
                input=data,
                capture_output=True,
                timeout=TIME_LIMIT_S,
                cwd=REPO_ROOT,
            )
        except subprocess.TimeoutExpired:
            raise unusable(f"checking the package took over {TIME_LIMIT_S} s") from None
    if done.returncode == OUT_OF_MEMORY or (done.returncode != 0 and b"MemoryError" in done.stderr):
        raise unusable(f"checking the package needed over {MEMORY_LIMIT_BYTES >> 20} MiB")
    if done.returncode != 0:
        raise RuntimeError(f"the package check failed: {done.stderr.decode()[-2000:]}")
    header, _, archive = done.stdout.partition(b"\n")
    result = json.loads(header)
    if "problem" in result:
        problems = [Problem(**detail) for detail in result["details"]]
        raise InvalidInput(result["problem"], problems)
    return CheckedPackage(archive=archive, **result)


def main() -> int:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))
    try:
        package = check_package(sys.stdin.buffer.read())
    except InvalidInput as error:
        details = [detail.model_dump() for detail in error.details]
        sys.stdout.write(json.dumps({"problem": error.message, "details": details}) + "\n")
        return 0
    except MemoryError:
        return OUT_OF_MEMORY
    fields = {k: v for k, v in asdict(package).items() if k != "archive"}
    sys.stdout.buffer.write(json.dumps(fields).encode() + b"\n" + package.archive)
    return 0


if __name__ == "__main__":
    sys.exit(main())
