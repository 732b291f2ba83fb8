"""Reading a spec: a mapping, or a YAML or JSON file, into an ``ExperimentSpec``, with every
problem named at once (a field's location and what is wrong with it)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from raysweep.errors import Problem, SpecError
from raysweep.search_space import PARAMETER_TYPES, SEARCH_SPACE_ADAPTER, Parameter
from raysweep.spec import ExperimentSpec, objective_problems, training_source_problem

_SHORT_MESSAGES = {
    "greater_than_equal": "must be >= {ge}",
    "greater_than": "must be > {gt}",
    "less_than_equal": "must be <= {le}",
    "less_than": "must be < {lt}",
    "missing": "is required",
    "extra_forbidden": "unknown field",
    "literal_error": "must be one of {expected}",
    "too_short": "must have at least {min_length} item(s)",
    "too_long": "must have at most {max_length} item(s)",
    "string_pattern_mismatch": "has characters or a length that are not allowed",
    "finite_number": "must be a finite number",
}


def _location(loc: tuple[str | int, ...]) -> str:
    """Dotted path without pydantic's union tags (which name a branch, not a field)."""
    parts = list(loc)
    if parts[:1] == ["search_space"] and len(parts) > 1:
        del parts[1]  # "file" / "inline" tag
        if len(parts) > 2 and parts[2] in PARAMETER_TYPES:
            del parts[2]
    # dict-key errors are reported at "<key>.[key]"; the key itself is the location
    parts = [p for p in parts if p != "[key]"]
    return ".".join(str(p) for p in parts)


def problems_from_error(error: ValidationError, prefix: str = "") -> list[Problem]:
    """Turn every pydantic error into a ``Problem`` with a dotted path and a short message."""
    problems = []
    for item in error.errors(include_url=False):
        template = _SHORT_MESSAGES.get(item["type"])
        message = template.format(**item.get("ctx", {})) if template else item["msg"]
        message = message.removeprefix("Value error, ")
        path = _location(item["loc"])
        problems.append(Problem(path=f"{prefix}{path}" if prefix else path, message=message))
    return problems


def parse_spec(data: Any) -> ExperimentSpec:
    """Validate a mapping into an ``ExperimentSpec`` or raise ``SpecError`` naming every problem."""
    try:
        return ExperimentSpec.model_validate(data)
    except ValidationError as error:
        problems = problems_from_error(error)
        if isinstance(data, dict):
            # the model's own checks run only when every field passed: name their problems
            # either way, each at the field a user fixes
            problems = [p for p in problems if p.path != ""] + _cross_field_problems(data)
        raise SpecError(problems) from None


def _cross_field_problems(data: dict[str, Any]) -> list[Problem]:
    problems = []
    if source := training_source_problem(
        data.get("trainer") is not None, data.get("code") is not None
    ):
        problems.append(Problem(path="trainer", message=source))
    objectives = data.get("objectives")
    names = (
        None
        if objectives is None
        else [str(o.get("metric")) for o in objectives if isinstance(o, dict)]
        if isinstance(objectives, list)
        else []
    )
    early = data.get("early_stopping")
    chosen = early.get("objective") if isinstance(early, dict) else None
    return problems + objective_problems(data.get("metric"), data.get("mode"), names, chosen)


def parse_search_space(data: Any, prefix: str = "") -> dict[str, Parameter]:
    """Validate a search-space mapping (as found in a YAML file) or raise ``SpecError``."""
    try:
        return SEARCH_SPACE_ADAPTER.validate_python(data)
    except ValidationError as error:
        problems = problems_from_error(error, prefix)
        raise SpecError(problems) from None


class _YamlLoader(yaml.SafeLoader):
    """PyYAML's safe loader reading floats as YAML 1.2 does: ``1e-4`` and ``3E5`` are numbers
    (YAML 1.1, which PyYAML follows, wants a dot: it read ``lr: 1e-4`` as the string "1e-4",
    which the spec's numbers refuse)."""


_YamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(
        r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
        |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
        |\.[0-9_]+(?:[eE][-+]?[0-9]+)?
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$""",
        re.X,
    ),
    list("-+0123456789."),
)


def read_mapping(path: str | Path) -> Any:
    """Read a YAML or JSON file (JSON is YAML, but its errors read better from ``json``); a file
    that is neither is a ``SpecError`` naming the file and the line."""
    text = Path(path).read_text()
    try:
        if str(path).endswith(".json"):
            return json.loads(text)
        return yaml.load(text, Loader=_YamlLoader)
    except json.JSONDecodeError as error:
        where = f"{path}: line {error.lineno}, column {error.colno}"
        raise SpecError([Problem(path="", message=f"{where}: {error.msg}")]) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{path}: line {mark.line + 1}, column {mark.column + 1}" if mark else str(path)
        problem = getattr(error, "problem", None) or str(error)
        raise SpecError([Problem(path="", message=f"{where}: not valid YAML: {problem}")]) from None


def load_spec(path: str | Path) -> ExperimentSpec:
    """Load and validate a spec from a YAML or JSON file."""
    return parse_spec(read_mapping(path))
