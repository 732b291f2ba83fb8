"""train.py: linear regression on generated data, sharded over the workers, checkpointed."""

import os
import tempfile

import ray.train
import ray.train.torch
import torch
from torch.utils.data import DataLoader, TensorDataset


def train_loop(config: dict) -> None:
    torch.manual_seed(config["seed"])  # same data and initial weights on every worker
    x = torch.randn(1024, 8)
    y = x @ torch.linspace(-1, 1, 8) + 0.1 * torch.randn(1024)
    # each worker reads its shard of the data (a DistributedSampler), shuffled per epoch
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    loader = ray.train.torch.prepare_data_loader(loader)
    model = ray.train.torch.prepare_model(torch.nn.Linear(8, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=config["lr"])
    start = 1
    if checkpoint := ray.train.get_checkpoint():  # resumed: continue after the saved epoch
        with checkpoint.as_directory() as directory:
            state = torch.load(os.path.join(directory, "state.pt"))
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start = state["epoch"] + 1
    for epoch in range(start, config["epochs"] + 1):
        if ray.train.get_context().get_world_size() > 1:
            loader.sampler.set_epoch(epoch)  # another order each epoch, the same on a resume
        for features, target in loader:
            loss = torch.nn.functional.mse_loss(model(features).squeeze(1), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        metrics = {"epoch": epoch, "loss": loss.item()}
        with tempfile.TemporaryDirectory() as directory:
            checkpoint = None
            if ray.train.get_context().get_world_rank() == 0:
                state = {"model": model.state_dict(), "optimizer": optimizer.state_dict()}
                torch.save({**state, "epoch": epoch}, os.path.join(directory, "state.pt"))
                checkpoint = ray.train.Checkpoint.from_directory(directory)
            ray.train.report(metrics, checkpoint=checkpoint)
