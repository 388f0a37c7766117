# expect: accepted
# Technique: each program takes ROWS whole rows as one [ROWS, BLOCK_C] tile (C <= 1000 fits one tile),
# computes each row's log-sum-exp as max + log(sum exp(x - max)), picks the label's logit with tl.where
# instead of a gather, and adds its rows' (lse - logit) / N into loss with one tl.atomic_add (zeroed first).
import torch
import triton
import triton.language as tl


# N only masks: unspecialised, one kernel serves every N. C, the row stride, stays specialised.
@triton.jit(do_not_specialize=["N"])
def cross_entropy_kernel(logits_ptr, labels_ptr, loss_ptr, N, C,
                         ROWS: tl.constexpr, BLOCK_C: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_C)
    row_mask = rows < N
    mask = row_mask[:, None] & (cols[None, :] < C)
    x = tl.load(logits_ptr + rows[:, None] * C + cols[None, :], mask=mask, other=-float("inf"))

    row_max = tl.max(x, axis=1)
    row_max = tl.where(row_mask, row_max, 0.0)  # rows past N are all -inf: keep them from making NaN
    sum_exp = tl.sum(tl.exp(x - row_max[:, None]), axis=1)
    lse = row_max + tl.log(sum_exp)

    labels = tl.load(labels_ptr + rows, mask=row_mask, other=0)
    label_logit = tl.sum(tl.where(cols[None, :] == labels[:, None], x, 0.0), axis=1)
    row_loss = tl.where(row_mask, lse - label_logit, 0.0)
    tl.atomic_add(loss_ptr, tl.sum(row_loss, axis=0) / N)


def solve(logits: torch.Tensor, true_labels: torch.Tensor, loss: torch.Tensor, N: int, C: int):
    BLOCK_C = max(16, triton.next_power_of_2(C))  # few tile shapes, few kernels
    ROWS = max(1, 4096 // BLOCK_C)
    loss.zero_()  # the programs add into it
    cross_entropy_kernel[(triton.cdiv(N, ROWS),)](logits, true_labels, loss, N, C,
                                                  ROWS=ROWS, BLOCK_C=BLOCK_C)
