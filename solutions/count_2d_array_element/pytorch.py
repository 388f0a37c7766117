# expect: accepted
# Technique: the layout does not change which elements match: compare the whole flat N * M buffer with K
# and count the Trues (an exact int64 sum), copied into the int32 output in place.
import torch


def solve(input: torch.Tensor, output: torch.Tensor, N: int, M: int, K: int):
    output.copy_((input[:N * M] == K).sum().unsqueeze(0))
