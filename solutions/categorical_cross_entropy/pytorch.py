# expect: accepted
# Technique: torch.nn.functional.cross_entropy on the N x C view of the logits (log-softmax through
# log-sum-exp, so no exp overflows and no log(0) appears), mean over the rows; the int32 labels become
# the int64 class indices it takes.
import torch
import torch.nn.functional as F


def solve(logits: torch.Tensor, true_labels: torch.Tensor, loss: torch.Tensor, N: int, C: int):
    loss.copy_(F.cross_entropy(logits.view(N, C), true_labels.long()).unsqueeze(0))
