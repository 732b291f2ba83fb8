"""The patterns raysweep's names must match: sweeps, models, clusters and labels, and projects
(which appear in URLs and CLI flags)."""

from __future__ import annotations

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$"
LABEL_KEY_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$"
# a project's name: lower case, as it appears in URLs and CLI flags
PROJECT_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,62}$"
DEFAULT_PROJECT = "default"
