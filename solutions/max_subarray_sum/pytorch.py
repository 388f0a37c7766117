# expect: accepted
# Technique: every window sum is a difference of prefix sums. torch.cumsum (in int64) with a 0 in front
# gives P, and P[w:] - P[:-w] holds all N - w + 1 window sums at once; their max goes into output in place.
import torch
import torch.nn.functional as F


def solve(input: torch.Tensor, output: torch.Tensor, N: int, window_size: int):
    prefix = F.pad(torch.cumsum(input[:N], dim=0, dtype=torch.int64), (1, 0))
    output.copy_((prefix[window_size:] - prefix[:-window_size]).max().unsqueeze(0))
