"""A short PyTorch training loop on random data: the program behind the many-kernel report.

A small CNN on random 32 x 32 images, SGD with momentum, on the GPU. Each step launches a few
dozen kernels (convolutions, activations, pooling, the loss, backward, the optimizer), so ncu's
--launch-count 400 fills with a realistic mix. See benchmarks/README.md for the capture command.
"""

from __future__ import annotations

import argparse
import sys

import torch
from torch import nn


def model() -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(32 * 8 * 8, 128),
        nn.ReLU(),
        nn.Linear(128, 10),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--batch", type=int, default=64)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("train_loop: needs a CUDA GPU", file=sys.stderr)
        return 1
    torch.manual_seed(0)
    device = torch.device("cuda")
    net = model().to(device)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()
    images = torch.randn(args.batch, 3, 32, 32, device=device)
    labels = torch.randint(0, 10, (args.batch,), device=device)
    for step in range(args.steps):
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(net(images), labels)
        loss.backward()
        optimizer.step()
        if step % 5 == 0 or step == args.steps - 1:
            print(f"step {step}: loss {loss.item():.4f}")
    torch.cuda.synchronize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
