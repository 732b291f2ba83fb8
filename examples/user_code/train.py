"""train.py: linear regression on generated data, sharded over the workers, checkpointed."""

import os
import tempfile

import ray.train
import ray.train.torch
import torch


def train_loop(config: dict) -> None:
    context = ray.train.get_context()
    rank, size = context.get_world_rank(), context.get_world_size()
    torch.manual_seed(config["seed"])  # same data and initial weights on every worker
    x = torch.randn(1024, 8)
    y = x @ torch.linspace(-1, 1, 8) + 0.1 * torch.randn(1024)
    x, y = x[rank::size], y[rank::size]  # this worker's shard
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
        for batch in torch.arange(len(y)).split(32):
            loss = torch.nn.functional.mse_loss(model(x[batch]).squeeze(1), y[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        metrics = {"epoch": epoch, "loss": loss.item()}
        with tempfile.TemporaryDirectory() as directory:
            checkpoint = None
            if rank == 0:
                state = {"model": model.state_dict(), "optimizer": optimizer.state_dict()}
                torch.save({**state, "epoch": epoch}, os.path.join(directory, "state.pt"))
                checkpoint = ray.train.Checkpoint.from_directory(directory)
            ray.train.report(metrics, checkpoint=checkpoint)
