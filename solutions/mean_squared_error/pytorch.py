# expect: accepted
# Technique: torch.nn.functional.mse_loss with its default mean reduction: the squared differences and
# their float32 tree sum divided by N, copied into mse in place.
import torch
import torch.nn.functional as F


def solve(predictions: torch.Tensor, targets: torch.Tensor, mse: torch.Tensor, N: int):
    mse.copy_(F.mse_loss(predictions[:N], targets[:N]).unsqueeze(0))
