"""The web UI's types (web/src/types.ts, written by hand) against the API's OpenAPI document: each
interface names the response schema it mirrors, and names no field that schema lacks (a field the
UI reads but the API never sends is `undefined` in the browser, which TypeScript cannot see); each
state union holds exactly the schema's values. A field the API adds and the UI does not read yet
is fine. A new interface must be mapped here, or listed as the UI's own."""

from __future__ import annotations

import re
from typing import Any

import pytest

from service.api.app import create_app
from service.db.session import create_db_engine, session_factory
from service.settings import REPO_ROOT, Settings

TYPES = REPO_ROOT / "web" / "src" / "types.ts"
# interface in types.ts -> the OpenAPI schema it mirrors
MIRRORS = {
    "Page": "Page_ExperimentRead_",
    "TrialSummary": "TrialSummary",
    "Trial": "TrialRead",
    "Experiment": "ExperimentRead",
    "SpaceVersion": "SpaceVersion",
    "Problem": "Problem",
    "TrialClock": "TrialClock",
    "EventItem": "EventRead",
    "CurveSeries": "CurveSeries",
    "Curves": "Curves",
    "Rung": "Rung",
    "Rungs": "Rungs",
    "ConfigRow": "ConfigRow",
    "ConfigTable": "ConfigTable",
    "ParameterImportance": "ParameterImportance",
    "Importance": "Importance",
    "ImportanceWarning": "ImportanceWarning",
    "ObjectiveRead": "ObjectiveRead",
    "ParetoTrial": "ParetoTrial",
    "Pareto": "Pareto",
    "HistoryPoint": "HistoryPoint",
    "History": "raysweep__analysis__History",
    "ResultPoint": "ResultPoint",
    "Updates": "ExperimentUpdates",
    "ResultItem": "ResultRead",
    "Checkpoint": "CheckpointRead",
    "Me": "TokenRead",
    "Usage": "Usage",
    "UsageReport": "UsageRead",
    "Project": "ProjectRead",
    "FinalRun": "FinalRunRead",
    "ModelSummary": "ModelRead",
    "ModelVersion": "ModelVersionRead",
    "RetrainSettings": "RetrainSettings",
    "ScheduleFiring": "ScheduleFiringRead",
    "Schedule": "ScheduleRead",
    "Cluster": "ClusterRead",
    "LogLine": "LogLine",
    "TrialLogs": "TrialLogs",
    "Webhook": "WebhookRead",
    "WebhookCreated": "WebhookCreated",
    "Delivery": "DeliveryRead",
    "TrialWait": "TrialWait",
    "TimelineTrial": "TimelineTrial",
    "TimelineData": "Timeline",
}
# the UI's own shapes, which no schema names: a model version's comparison is a free-form object
# in the API (``ModelVersionRead.comparison``), which the UI reads as this
UI_OWN = {"Comparison"}
STATE_UNIONS = ("ExperimentState", "TrialState", "Role", "FinalRunState", "DeliveryState")


def typescript() -> str:
    """types.ts without its comments."""
    text = re.sub(r"/\*.*?\*/", "", TYPES.read_text(), flags=re.DOTALL)
    return re.sub(r"//[^\n]*", "", text)


def interfaces(source: str) -> dict[str, tuple[str | None, set[str]]]:
    """Each interface: (what it extends, the names of its own top-level fields)."""
    found = {}
    for match in re.finditer(r"export interface (\w+)(?:<\w+>)? (?:extends (\w+) )?\{", source):
        depth, end = 1, match.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(source[end], 0)
            end += 1
        # nested types ({...}, [...], <...>) blanked, so only the interface's own fields remain
        top, depth = [], 0
        for char in source[match.end() : end - 1]:
            depth -= char in "}]>)"
            top.append(char if depth == 0 else " ")
            depth += char in "{[<("
        names = re.findall(r"(?:^|[;\n])\s*(\w+)\??\s*:", "".join(top))
        found[match.group(1)] = (match.group(2), set(names))
    return found


def unions(source: str) -> dict[str, set[str]]:
    return {
        match.group(1): set(re.findall(r'"([^"]+)"', match.group(2)))
        for match in re.finditer(r"export type (\w+) =\s*([^;]+);", source)
    }


@pytest.fixture(scope="module")
def schemas(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    settings = Settings(home=tmp_path_factory.mktemp("home"))
    app = create_app(settings, session_factory(create_db_engine("sqlite://")), {})
    found: dict[str, Any] = app.openapi()["components"]["schemas"]
    return found


def test_every_interface_names_only_fields_its_schema_has(schemas: dict[str, Any]) -> None:
    declared = interfaces(typescript())
    assert len(declared) > 40, sorted(declared)  # the parser found the file's interfaces
    assert set(declared) == set(MIRRORS) | UI_OWN, "map each new interface in MIRRORS"
    phantoms = {}
    for name, schema in MIRRORS.items():
        parent, fields = declared[name]
        if parent is not None:
            fields |= declared[parent][1]
        missing = fields - set(schemas[schema]["properties"])
        if missing:
            phantoms[f"{name} ({schema})"] = sorted(missing)
    assert not phantoms, f"fields the UI reads that the API never sends: {phantoms}"


def test_every_state_union_is_the_apis_enum(schemas: dict[str, Any]) -> None:
    declared = unions(typescript())
    for name in STATE_UNIONS:
        assert declared[name] == set(schemas[name]["enum"]), name


def test_a_field_the_api_lacks_is_found(schemas: dict[str, Any]) -> None:
    """The check itself: a field added to a copy of an interface is reported."""
    source = typescript().replace("notes: string | null;", "notes: string | null; rating: number;")
    parent, fields = interfaces(source)["TrialSummary"]
    assert parent is None and "rating" in fields
    assert "rating" not in schemas["TrialSummary"]["properties"]
