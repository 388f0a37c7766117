# expect: accepted
# Technique: compare, then count the Trues: (input == K).sum() counts exactly in int64, and copy_ narrows
# it into the int32 output in place.
import torch


def solve(input: torch.Tensor, output: torch.Tensor, N: int, K: int):
    output.copy_((input[:N] == K).sum().unsqueeze(0))
