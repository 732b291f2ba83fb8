"""A spec's ``code`` block: user training code as an uploaded package, the function in it Ray
Train runs on every worker, and what it reports."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, StrictBool, model_validator

from raysweep.mode import ModeName
from raysweep.schemas import ReadModel
from raysweep.strict import StrictModel

PACKAGE_HASH_PATTERN = r"^[0-9a-f]{64}$"
# a pip requirement specifier: a name, extras, version clauses and an environment marker; no
# option (`--index-url`), URL or path: what a member may make every node install is a name
REQUIREMENT_PATTERN = (
    r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}"  # the name
    r"(\[[A-Za-z0-9._, -]{1,100}\])?"  # extras
    r"[A-Za-z0-9._ ,<>=!~*+;'\"()-]{0,200}$"  # versions and a marker
)
ENTRYPOINT_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*$"
DATASET_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$"
DatasetFormat = Literal["parquet", "csv", "json"]
FORMAT_OF_SUFFIX: dict[str, DatasetFormat] = {
    ".parquet": "parquet",
    ".csv": "csv",
    ".json": "json",
    ".jsonl": "json",
}


class DatasetSource(StrictModel):
    """A Ray Data dataset the workers read their shard of (``ray.train.get_dataset_shard(name)``):
    files at ``path``, or what a function of the package returns.

    Example::

        DatasetSource(path="/data/fashion/train.parquet")
        DatasetSource(function="data:make_train")
    """

    path: str | None = Field(
        default=None,
        min_length=1,
        max_length=1024,
        description="A file or directory every node of the sweep's cluster (and of its final "
        "runs' cluster) reads: a shared filesystem, or a `s3://`/`gs://` URI with the nodes' "
        "credentials; read with Ray Data's `read_parquet`, `read_csv` or `read_json`.",
    )
    format: DatasetFormat | None = Field(
        default=None,
        description="How to read `path`; default: its suffix (`.parquet`, `.csv`, `.json`, "
        "`.jsonl`). Required for a directory or another suffix.",
    )
    function: str | None = Field(
        default=None,
        pattern=ENTRYPOINT_PATTERN,
        description="`module:function` in the code package, called with no arguments in each "
        "trial (and final run) before its workers start; it returns a `ray.data.Dataset`, e.g. "
        "`ray.data.from_items(...)` for a small generated set.",
    )

    @model_validator(mode="after")
    def _one_source(self) -> DatasetSource:
        if (self.path is None) == (self.function is None):
            raise ValueError("give either path (files to read) or function (in the package)")
        if self.function is not None and self.format is not None:
            raise ValueError("format is for path; a function returns its dataset")
        if self.path is not None and self.read_format is None:
            raise ValueError(
                f"cannot tell how to read {self.path!r} from its suffix: set format "
                "(parquet, csv or json)"
            )
        return self

    @property
    def read_format(self) -> DatasetFormat | None:
        """``format``, or the one ``path``'s suffix names."""
        if self.format is not None or self.path is None:
            return self.format
        name = self.path.rstrip("/").rsplit("/", 1)[-1].lower()
        return next((f for s, f in FORMAT_OF_SUFFIX.items() if name.endswith(s)), None)

    def describe(self) -> str:
        return f"function {self.function}" if self.function else f"{self.read_format} {self.path}"


class CodeRef(StrictModel):
    """User training code: an uploaded package (``POST /api/v1/code``) and the function in it that
    Ray Train runs on every worker (see trainers/README.md for the contract).

    Example::

        CodeRef(package="9f2c...", entrypoint="train:train_loop",
                metrics={"val_loss": "min", "epoch": "max"})
    """

    package: str = Field(
        pattern=PACKAGE_HASH_PATTERN, description="The package's sha256, as the upload returned."
    )
    entrypoint: str = Field(
        pattern=ENTRYPOINT_PATTERN,
        description="`module:function` inside the package, e.g. `train:train_loop`.",
    )
    metrics: dict[Annotated[str, Field(min_length=1, max_length=128)], ModeName] = Field(
        min_length=1,
        max_length=256,
        description="Every metric the function reports and its direction; must include "
        "every metric the spec reads (`metric`, or each of `objectives`, and `constraints`) "
        "and, unless early_stopping.scheduler is `none`, the early-stopping time attribute "
        "(default `epoch`): a spec (or schedule template) without them is a 422 naming each.",
    )
    requirements: list[Annotated[str, Field(pattern=REQUIREMENT_PATTERN)]] = Field(
        default_factory=list,
        max_length=64,
        description="Python packages the code needs beyond raysweep's own (torch, Ray, numpy, "
        "...), as pip requirement specifiers (`torchvision==0.28.0`, `tomli-w>=1`): installed "
        "by Ray's runtime environment into a virtualenv on each node that runs the sweep "
        "(over raysweep's packages, cached per list), before its first trial starts. A "
        "requirement pip cannot install fails the sweep with pip's error. Names and versions "
        "only: no options, URLs or paths.",
    )
    process_group: Literal["torch", "none"] = Field(
        default="torch",
        description="`torch`: Ray Train sets up torch.distributed on the workers before the "
        "function runs (gloo on CPUs, NCCL on GPUs), as its TorchTrainer does: what DDP "
        "(`ray.train.torch.prepare_model`) needs. `none`: no process group, for code that does "
        "not use torch.distributed (each worker still has its rank and world size from "
        "`ray.train.get_context()`, and reports and checkpoints as usual); its trials' Ray "
        "processes then never import torch, which saves seconds of start-up per trial.",
    )
    datasets: dict[Annotated[str, Field(pattern=DATASET_NAME_PATTERN)], DatasetSource] = Field(
        default_factory=dict,
        max_length=16,
        description="Ray Data datasets given to Ray Train (its `datasets=`), by name: each "
        "worker reads its shard with `ray.train.get_dataset_shard(name)` (an iterator: "
        "`iter_torch_batches`, `iter_batches`). Ray Train splits them over the workers each "
        "epoch. Ray Data's read and transform tasks run beside the worker group, on CPUs it "
        "does not hold: the resource gate keeps one CPU free beside each running trial (and "
        "final run) given datasets. Bundled trainers load their own data and take none.",
    )
    checkpoints: StrictBool = Field(
        default=True,
        description="Whether the function saves checkpoints (`ray.train.report(metrics, "
        "checkpoint=...)`) and resumes from `ray.train.get_checkpoint()`. Without them a "
        "trial whose workers restart starts over from its first epoch, resuming a paused sweep "
        "ends its trials that trained, an extension cannot continue a trial, and "
        "`asha_promotion` (which pauses trials at their checkpoints) is refused; the submit "
        "answer's `notes` say so.",
    )

    @property
    def gives_up(self) -> list[str]:
        """What a sweep of this code gives up, for the submit answer's ``notes``."""
        if self.checkpoints:
            return []
        return [
            "code.checkpoints is false: a trial whose workers restart trains again from its "
            "first epoch, resuming a paused sweep ends its trials that trained (they would "
            "start over), an extension cannot continue a trial, and a final run has no "
            "checkpoint to register as a model version"
        ]


class CodePackageRead(ReadModel):
    """An uploaded training-code package; name it in a spec as ``code: {package: <sha256>}``."""

    sha256: str
    size_bytes: int
    files: int
    modules: list[str] = Field(description="Importable modules, e.g. `train` or `pkg.train`.")
    uploaded_by: str | None = Field(
        description="The token that uploaded it into the project it is read through (the first "
        "of the caller's projects to hold it): the same files uploaded in another project do "
        "not show who uploaded them there."
    )
    created_at: datetime = Field(description="When that project first held it.")
