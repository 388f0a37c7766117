# expect: accepted
# Technique: a 3-D array stored row-major is one flat run of N * M * K ints: compare it with P and count
# the Trues (an exact int64 sum), copied into the int32 output in place.
import torch


def solve(input: torch.Tensor, output: torch.Tensor, N: int, M: int, K: int, P: int):
    output.copy_((input[:N * M * K] == P).sum().unsqueeze(0))
