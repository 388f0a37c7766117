# expect: accepted
# Technique: view the flat buffer as rows x cols and sum along dim=0 (down the columns), written into
# col_sums in place.
import torch


def solve(matrix: torch.Tensor, col_sums: torch.Tensor, rows: int, cols: int):
    col_sums.copy_(matrix.view(rows, cols).sum(dim=0))
