"""Tooling for the test suite and the benchmarks, kept out of the installed packages (the wheel
and the image carry none of it): running the server as operators do (``harness``) and writing a
simulated sweep straight into the database (``demo``). Imported from a checkout, where the
repository's root is on the path (pytest's rootdir, the benchmarks' own path setup)."""
