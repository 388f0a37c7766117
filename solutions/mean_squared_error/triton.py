# expect: accepted
# Technique: the scale folded into the partial sums. Persistent programs accumulate (p - t)^2 in a
# BLOCK-wide float32 vector over a grid-stride loop (short per-lane chains: all terms are positive, so a
# long running sum would drift), and each adds tl.sum(acc) / N into the zeroed mse with one atomic: the
# mean comes out of the atomics with no second pass.
import torch
import triton
import triton.language as tl


@triton.jit
def mse_kernel(pred_ptr, target_ptr, mse_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(pid * BLOCK, N, tl.num_programs(0) * BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        mask = offsets < N
        p = tl.load(pred_ptr + offsets, mask=mask, other=0.0)
        t = tl.load(target_ptr + offsets, mask=mask, other=0.0)
        d = p - t  # padding lanes: 0 - 0 = 0
        acc += d * d
    tl.atomic_add(mse_ptr, tl.sum(acc, axis=0) / N)


def solve(predictions: torch.Tensor, targets: torch.Tensor, mse: torch.Tensor, N: int):
    BLOCK = 2048
    max_programs = 4 * torch.cuda.get_device_properties(predictions.device).multi_processor_count
    num_programs = max(1, min(triton.cdiv(N, BLOCK), max_programs))
    mse.zero_()
    mse_kernel[(num_programs,)](predictions, targets, mse, N, BLOCK=BLOCK)
