# expect: accepted
# Technique: view the flat buffer as N x M x K, cut the inclusive box with three slices (ends + 1) and sum
# it exactly in int64, narrowed into the int32 output in place.
import torch


def solve(input: torch.Tensor, output: torch.Tensor, N: int, M: int, K: int,
          S_DEP: int, E_DEP: int, S_ROW: int, E_ROW: int, S_COL: int, E_COL: int):
    box = input.view(N, M, K)[S_DEP:E_DEP + 1, S_ROW:E_ROW + 1, S_COL:E_COL + 1]
    output.copy_(box.sum().unsqueeze(0))
