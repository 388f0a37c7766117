# Whether a Python solve can be captured into a CUDA graph the way the runner's bootstrap does it
# (judge/runner_program/python_bootstrap.py, _Replays), with the legacy stream busy as the held-back
# clock keeps it: python3 tests/gpu/python_replay_probe.py solutions/reduction/triton.py ...
import importlib.util
import sys
import time
import traceback

import torch


def load(path):
    spec = importlib.util.spec_from_file_location("solution", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


N = 100_000_000
x = torch.rand(N, device="cuda")
out = torch.empty(1, device="cuda")
side = torch.cuda.Stream()
for path in sys.argv[1:]:
    solve = load(path).solve
    solve(x, out, N)  # the compile call
    torch.cuda.synchronize()
    torch.cuda._sleep(50_000_000)  # the legacy stream busy, as behind the judge's blocking kernel
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.stream(side):
            graph.capture_begin()
            try:
                solve(x, out, N)
            finally:
                graph.capture_end()
        print(path, "captured")
    except Exception:
        print(path, "NOT captured:")
        traceback.print_exc()
        torch.cuda.synchronize()
        continue
    torch.cuda.synchronize()
    with torch.cuda.stream(torch.cuda.default_stream()):
        graph.replay()
    torch.cuda.synchronize()
    expected = x.double().sum().item()
    print(path, "replayed: output", out.item(), "expected", expected)
    start = time.perf_counter()
    for _ in range(100):
        with torch.cuda.stream(torch.cuda.default_stream()):
            graph.replay()
    print(path, "replay host time per call {:.1f} us".format((time.perf_counter() - start) * 1e4))
    torch.cuda.synchronize()
