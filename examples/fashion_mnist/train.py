"""Ray Train's Fashion-MNIST example (ray/train/examples/pytorch/torch_fashion_mnist_example.py
as Ray 2.60 ships it), ported to raysweep: the same data loaders (shuffled, through
``prepare_data_loader``), model, optimizer, reproducibility setting, per-epoch sampler seeding,
evaluation and report, run by Ray Train on every worker. Two things differ:

- the data source: a generated stand-in with Fashion-MNIST's shape and normalization
  (fashion_data.py), since the example's torchvision download (under a FileLock) needs the
  internet;
- the report names its ``epoch`` (counting from 1), which raysweep's early stopping judges at.

The example's ``train_fashion_mnist()`` (which builds a TorchTrainer and calls ``fit()``) is
left out: raysweep builds the trainer, one per trial, from the spec (examples/fashion_mnist.yaml),
and passes ``lr``, ``batch_size_per_worker`` and ``epochs`` in ``config``. The example does not
checkpoint, so the spec says ``code.checkpoints: false`` (trainers/README.md says what that
costs)."""

import ray.train
import ray.train.torch
import torch
from fashion_data import fashion_mnist
from torch import nn
from torch.utils.data import DataLoader
from tqdm import tqdm


def get_dataloaders(batch_size):
    training_data = fashion_mnist(train=True)
    test_data = fashion_mnist(train=False)
    train_dataloader = DataLoader(training_data, batch_size=batch_size, shuffle=True)
    test_dataloader = DataLoader(test_data, batch_size=batch_size)
    return train_dataloader, test_dataloader


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512),
            nn.ReLU(),
            nn.Dropout(0.25),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Dropout(0.25),
            nn.Linear(512, 10),
            nn.ReLU(),
        )

    def forward(self, x):
        x = self.flatten(x)
        return self.linear_relu_stack(x)


def train_func_per_worker(config: dict):
    ray.train.torch.enable_reproducibility()

    lr = config["lr"]
    epochs = config["epochs"]
    batch_size = config["batch_size_per_worker"]

    train_dataloader, test_dataloader = get_dataloaders(batch_size=batch_size)
    # each worker reads its shard, moved to its device
    train_dataloader = ray.train.torch.prepare_data_loader(train_dataloader)
    test_dataloader = ray.train.torch.prepare_data_loader(test_dataloader)

    model = ray.train.torch.prepare_model(NeuralNetwork())  # DDP, on the worker's device
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)

    for epoch in range(epochs):
        if ray.train.get_context().get_world_size() > 1:
            # the distributed sampler shuffles differently each epoch only when told the epoch
            train_dataloader.sampler.set_epoch(epoch)

        model.train()
        for X, y in tqdm(train_dataloader, desc=f"Train Epoch {epoch}"):
            pred = model(X)
            loss = loss_fn(pred, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        test_loss, num_correct, num_total = 0, 0, 0
        with torch.no_grad():
            for X, y in tqdm(test_dataloader, desc=f"Test Epoch {epoch}"):
                pred = model(X)
                test_loss += loss_fn(pred, y).item()
                num_total += y.shape[0]
                num_correct += (pred.argmax(1) == y).sum().item()
        test_loss /= len(test_dataloader)
        accuracy = num_correct / num_total

        # the one line raysweep needs changed: the report names its epoch
        ray.train.report(metrics={"loss": test_loss, "accuracy": accuracy, "epoch": epoch + 1})
