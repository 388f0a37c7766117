# expect: accepted
# Technique: slice the inclusive range as input[S:E + 1] (Python slices exclude their end) and sum it
# exactly in int64, narrowed into the int32 output in place.
import torch


def solve(input: torch.Tensor, output: torch.Tensor, N: int, S: int, E: int):
    output.copy_(input[S:E + 1].sum().unsqueeze(0))
