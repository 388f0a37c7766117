# expect: accepted
# Technique: torch's sum on a private torch.cuda.Stream that the caller's stream never waits for: the
# PyTorch twin of private_stream.cu, correct because the judge synchronises the whole device after
# solve. Timed runs capture solve's first call on each buffer set into a CUDA graph and replay it; work
# on this stream ran outside the capture, which came out empty, and every replay left the output
# unwritten (wrong_answer after every untimed test passed). Now an empty capture is said once and
# solve is called as it is. (Written by a QA review from the code alone; wrong_answer on an H200 before.)
import torch

_side = None


def solve(input: torch.Tensor, output: torch.Tensor, N: int):
    global _side
    if _side is None:
        _side = torch.cuda.Stream()
    with torch.cuda.stream(_side):
        output.copy_(input[:N].sum().unsqueeze(0))
