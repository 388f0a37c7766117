# expect: accepted
# Technique: torch.softmax over the one dimension (it subtracts the maximum before exponentiating, so
# nothing overflows), copied into output in place.
import torch


def solve(input: torch.Tensor, output: torch.Tensor, N: int):
    output.copy_(torch.softmax(input[:N], dim=0))
