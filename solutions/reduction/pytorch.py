# expect: accepted
# Technique: the PyTorch one-liner: torch's own sum (a tree of float32 partial sums on the GPU, well
# inside the tolerance), copied into output in place; the slice [:N] keeps the signature's length explicit.
import torch


def solve(input: torch.Tensor, output: torch.Tensor, N: int):
    output.copy_(input[:N].sum().unsqueeze(0))
