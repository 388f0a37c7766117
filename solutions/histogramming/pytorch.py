# expect: accepted
# Technique: torch.bincount with minlength=num_bins (the values are promised to lie in [0, num_bins), so
# exactly num_bins counts come back, empty bins included), narrowed into the int32 histogram in place.
import torch


def solve(input: torch.Tensor, histogram: torch.Tensor, N: int, num_bins: int):
    histogram.copy_(torch.bincount(input[:N], minlength=num_bins))
