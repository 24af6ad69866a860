"""A real many-kernel workload for the corpus: a small transformer encoder's training steps in
PyTorch on the GPU (cuBLAS/CUTLASS GEMMs with long names, softmax, layer norm, elementwise and
reduction kernels, many of them on small grids). Run under ncu by benchmarks/device_torch.sh."""

import torch


def main() -> None:
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoder(
        torch.nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024,
                                         batch_first=True), num_layers=2).cuda()
    optimizer = torch.optim.AdamW(layer.parameters(), lr=1e-3)
    data = torch.randn(8, 128, 256, device="cuda")
    for _ in range(3):
        optimizer.zero_grad()
        loss = layer(data).square().mean()
        loss.backward()
        optimizer.step()
    torch.cuda.synchronize()
    print(f"loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
