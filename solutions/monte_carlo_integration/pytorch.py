# expect: accepted
# Technique: the estimate is (b - a) times the mean of the samples: torch's float32 tree mean, scaled by
# the Python float (b - a), copied into result in place.
import torch


def solve(y_samples: torch.Tensor, result: torch.Tensor, a: float, b: float, n_samples: int):
    result.copy_((y_samples[:n_samples].mean() * (b - a)).unsqueeze(0))
