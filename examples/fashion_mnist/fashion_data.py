"""The local data source of the Fashion-MNIST port (train.py): a generated stand-in with
Fashion-MNIST's shape, so the example runs where nothing can be downloaded. Ten classes of 28x28
grayscale images, each class a different arrangement of bars and blocks, with a random shift
and noise per image; the same images on every worker and every run (a fixed seed). To train on
the real set, replace ``fashion_mnist`` in train.py with torchvision's ``datasets.FashionMNIST``
(and name ``torchvision`` in the spec's ``code.requirements``)."""

from __future__ import annotations

import torch
from torch.utils.data import TensorDataset

SIDE = 28
CLASSES = 10
TRAIN_IMAGES = 1024
TEST_IMAGES = 256
MEAN, DEVIATION = 0.28604, 0.32025  # the real set's, which the example normalizes with


def class_patterns() -> torch.Tensor:
    """One 28x28 pattern per class, values in [0, 1]."""
    patterns = torch.zeros(CLASSES, SIDE, SIDE)
    for label in range(CLASSES):
        if label < 4:  # horizontal bars, 2 to 5 of them
            for bar in range(label + 2):
                row = 3 + bar * (22 // (label + 2))
                patterns[label, row : row + 3, 4:24] = 1.0
        elif label < 8:  # vertical bars
            for bar in range(label - 2):
                column = 3 + bar * (22 // (label - 2))
                patterns[label, 4:24, column : column + 3] = 1.0
        else:  # a filled block, or a frame
            patterns[label, 6:22, 6:22] = 1.0
            if label == 9:
                patterns[label, 10:18, 10:18] = 0.0
    return patterns


def images(count: int, seed: int) -> TensorDataset:
    """``count`` images (1x28x28, in [0, 1] and then normalized with Fashion-MNIST's mean and
    deviation, as the example's ``Normalize((0.28604,), (0.32025,))`` does) and their labels."""
    generator = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, CLASSES, (count,), generator=generator)
    shifts = torch.randint(-2, 3, (count, 2), generator=generator)
    patterns = class_patterns()
    pictures = torch.stack(
        [
            torch.roll(patterns[label], shifts=(int(dy), int(dx)), dims=(0, 1))
            for label, (dy, dx) in zip(labels.tolist(), shifts, strict=True)
        ]
    )
    pictures = (pictures + 0.3 * torch.randn(pictures.shape, generator=generator)).clamp(0, 1)
    return TensorDataset(((pictures - MEAN) / DEVIATION).unsqueeze(1), labels)


def fashion_mnist(train: bool) -> TensorDataset:
    """The training or the test split, as ``datasets.FashionMNIST(train=...)`` would give it."""
    return images(TRAIN_IMAGES, seed=1) if train else images(TEST_IMAGES, seed=2)
