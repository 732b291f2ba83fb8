"""tiny_lm: a small causal transformer language model over characters of a generated corpus.

The corpus is produced by a seeded toy grammar (subjects, verbs, objects, places, times, with
number agreement), so it ships with the code and needs no download, yet has structure a model
can learn: a unigram model scores a perplexity near 17, a good small transformer below 3.
Non-overlapping windows of the corpus go, in order, to train/validation/test (80/10/10); the
test part is never swept on. Hyperparameters: lr, d_model, layers, heads, dropout,
weight_decay, optimizer, and the kit's keys (see trainers/README.md). Reports per epoch:
train_loss, val_loss (nats per character), val_perplexity, lr and throughput.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from functools import cache
from typing import Any

import torch
from torch import nn

from trainers.practices import Split, Task, task_from_config

CORPUS_SEED = 20240503
CORPUS_SENTENCES = 6000
CONTEXT = 64

_SUBJECTS = [
    ("the cat", "s"), ("the dog", "s"), ("a farmer", "s"), ("the old king", "s"),
    ("my sister", "s"), ("the robot", "s"), ("the birds", "p"), ("two sailors", "p"),
    ("the children", "p"), ("our neighbours", "p"),
]  # fmt: skip
_VERBS = [
    ("sees", "see"), ("finds", "find"), ("carries", "carry"), ("paints", "paint"),
    ("wants", "want"), ("builds", "build"), ("loses", "lose"), ("follows", "follow"),
]  # fmt: skip
_OBJECTS = [
    "a red ball", "the green door", "an apple", "the small boat", "a heavy box",
    "the silver key", "some bread", "a long letter",
]  # fmt: skip
_PLACES = ["in the garden", "near the river", "at the market", "under the bridge", "on the hill"]
_TIMES = ["every morning", "at night", "on sunday", "before dinner"]


def sentence(rng: random.Random) -> str:
    subject, number = rng.choice(_SUBJECTS)
    singular, plural = rng.choice(_VERBS)
    words = [subject, singular if number == "s" else plural, rng.choice(_OBJECTS)]
    if rng.random() < 0.6:
        words.append(rng.choice(_PLACES))
    if rng.random() < 0.3:
        words.append(rng.choice(_TIMES))
    return " ".join(words) + rng.choice([".", ".", ".", "!"])


@cache
def corpus() -> str:
    rng = random.Random(CORPUS_SEED)
    return " ".join(sentence(rng) for _ in range(CORPUS_SENTENCES))


@cache
def vocabulary() -> str:
    return "".join(sorted(set(corpus())))


@cache
def splits() -> dict[str, Split]:
    """Non-overlapping windows of CONTEXT + 1 characters; targets are inputs shifted by one."""
    index = {char: i for i, char in enumerate(vocabulary())}
    tokens = torch.tensor([index[char] for char in corpus()], dtype=torch.long)
    windows = tokens[: len(tokens) // (CONTEXT + 1) * (CONTEXT + 1)].view(-1, CONTEXT + 1)
    n_train, n_val = int(0.8 * len(windows)), int(0.1 * len(windows))
    parts = {
        "train": windows[:n_train],
        "val": windows[n_train : n_train + n_val],
        "test": windows[n_train + n_val :],
    }
    return {
        name: Split(part[:, :-1].contiguous(), part[:, 1:].contiguous())
        for name, part in parts.items()
    }


class TinyLM(nn.Module):
    def __init__(self, vocab: int, d_model: int, layers: int, heads: int, dropout: float):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.position = nn.Parameter(torch.zeros(CONTEXT, d_model))
        block = nn.TransformerEncoderLayer(
            d_model, heads, 4 * d_model, dropout, batch_first=True, norm_first=True
        )
        self.blocks = nn.TransformerEncoder(block, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d_model)
        self.out = nn.Linear(d_model, vocab)
        nn.init.normal_(self.position, std=0.02)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        length = tokens.shape[1]
        mask = nn.Transformer.generate_square_subsequent_mask(length, device=tokens.device)
        hidden = self.embed(tokens) + self.position[:length]
        return self.out(self.norm(self.blocks(hidden, mask=mask, is_causal=True)))


def loss(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    return nn.functional.cross_entropy(logits.float().flatten(0, 1), targets.flatten())


def sums(logits: torch.Tensor, targets: torch.Tensor) -> dict[str, float]:
    total = nn.functional.cross_entropy(
        logits.float().flatten(0, 1), targets.flatten(), reduction="sum"
    )
    return {"loss": float(total), "count": float(targets.numel())}


def metrics(totals: Mapping[str, float]) -> dict[str, float]:
    mean = totals["loss"] / max(totals["count"], 1.0)
    return {"loss": mean, "perplexity": math.exp(min(mean, 50.0))}


def build_task(config: Mapping[str, Any]) -> Task:
    d_model, heads = int(config["d_model"]), int(config["heads"])
    if d_model % heads:
        raise ValueError(f"d_model ({d_model}) must be a multiple of heads ({heads})")
    layers, dropout = int(config["layers"]), float(config["dropout"])
    model = TinyLM(len(vocabulary()), d_model, layers, heads, dropout)
    return task_from_config(model, splits(), loss, sums, metrics, config)
