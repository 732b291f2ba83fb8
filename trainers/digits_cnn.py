"""digits_cnn: a small convolutional classifier on the 8x8 digit images (no download).

Two 3x3 convolutions, a 2x2 max-pool and two linear layers. Hyperparameters: lr, channels,
hidden, dropout, weight_decay, optimizer, and the kit's keys (see trainers/README.md). Reports
per epoch: epoch, train_loss, val_loss, val_accuracy, lr and throughput.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import torch
from torch import nn

from trainers import digits
from trainers.practices import Task

SIDE = 8


class DigitsCNN(nn.Module):
    def __init__(self, channels: int, hidden: int, dropout: float):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, 2 * channels, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Linear(2 * channels * (SIDE // 2) ** 2, hidden),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(hidden, digits.NUM_CLASSES),
        )

    def forward(self, pixels: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(pixels.view(-1, 1, SIDE, SIDE)))


def build_model(config: Mapping[str, Any]) -> nn.Module:
    return DigitsCNN(int(config["channels"]), int(config["hidden"]), float(config["dropout"]))


def build_task(config: Mapping[str, Any]) -> Task:
    return digits.task(build_model(config), config)
