# Where a Triton file's first submit spends its time (issue 18): each functional test's shape called
# once against an empty Triton cache, then the same with cProfile, summed by the compiler's pieces.
#   python3 tests/gpu/triton_first_call.py <problem> [file.py]
import cProfile
import importlib.util
import os
import pstats
import sys
import tempfile
import time

problem = sys.argv[1]
path = sys.argv[2] if len(sys.argv) > 2 else f"solutions/{problem}/triton.py"
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-probe-")
start = time.perf_counter()
import torch  # noqa: E402
import triton  # noqa: E402

print(f"import torch+triton {time.perf_counter() - start:.2f} s, triton {triton.__version__}")
try:
    import yaml
except ImportError:  # the GPU machine's Python has no PyYAML: package.sh carries the pure-Python one
    sys.path.append(".device/pylib")
    import yaml
spec = yaml.safe_load(open(f"problems/{problem}/problem.yaml"))
params = spec["signature"]
tests = spec["tests"]
cases = [(t["name"], dict(t["scalars"])) for t in tests.get("examples", []) + tests.get("functional", [])]


def shapes():
    return cases


def arguments(scalars):
    env = dict(scalars)
    args = []
    for p in params:
        if p["type"].endswith("*"):
            count = 1
            for dim in p.get("shape", [1]):
                count *= int(eval(str(dim), {}, env))
            dtype = torch.float32 if "float" in p["type"] else torch.int32
            args.append(torch.zeros(max(count, 1), dtype=dtype, device="cuda"))
        else:
            args.append(scalars[p["name"]])
    return args


specl = importlib.util.spec_from_file_location("solution", path)
module = importlib.util.module_from_spec(specl)
specl.loader.exec_module(module)
torch.cuda.synchronize()


def run_all(label):
    total = time.perf_counter()
    for name, scalars in shapes():
        args = arguments(scalars)
        torch.cuda.synchronize()
        t = time.perf_counter()
        module.solve(*args)
        torch.cuda.synchronize()
        ms = (time.perf_counter() - t) * 1e3
        if ms > 20:
            print(f"  {label} {name}: {ms:.0f} ms")
    print(f"{label}: all shapes {time.perf_counter() - total:.2f} s")


run_all("empty cache")
entries = os.listdir(os.environ["TRITON_CACHE_DIR"])
files = [f for e in entries for f in os.listdir(os.path.join(os.environ["TRITON_CACHE_DIR"], e))]
print(f"cache: {len(entries)} entries, {sum(f.endswith('.cubin') for f in files)} cubins, "
      f"{sum(f.endswith('.so') for f in files)} .so: {sorted(set(os.path.splitext(f)[1] for f in files))}")
run_all("kept cache (same process)")

# A second empty cache, in a new JIT state, profiled: which pieces of the compiler cost what.
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-probe2-")
for name, obj in vars(module).items():
    if hasattr(obj, "device_caches"):
        obj.device_caches.clear()
profiler = cProfile.Profile()
profiler.enable()
run_all("empty cache, profiled")
profiler.disable()
stats = pstats.Stats(profiler)
rows = []
for (file, line, func), (cc, nc, tt, ct, callers) in stats.stats.items():
    if any(k in func for k in ("make_", "_build", "compile", "load_binary", "ptxas", "run", "subprocess",
                               "check_output", "make_launcher", "CudaUtils", "__init__")) and ct > 0.05:
        rows.append((ct, nc, f"{os.path.basename(file)}:{line}:{func}"))
for ct, nc, where in sorted(rows, reverse=True)[:30]:
    print(f"  {ct:7.2f} s {nc:4d} calls  {where}")
