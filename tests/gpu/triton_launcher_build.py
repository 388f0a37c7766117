# What one Triton launcher build costs and what a precompiled header of its includes saves (issue 18).
# Triton builds a C launcher per kernel signature with the host compiler; a first submit builds 2-6.
#   python3 tests/gpu/triton_launcher_build.py
import os
import shutil
import subprocess
import sys
import tempfile
import time

os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="launcher-probe-")
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton import knobs  # noqa: E402
from triton.runtime import build  # noqa: E402

captured = []


def capture(name, src, srcdir, library_dirs, include_dirs, libraries):
    captured.append((name, open(src).read(), list(library_dirs), list(include_dirs), list(libraries)))
    knobs.build.impl = None
    try:
        start = time.perf_counter()
        so = build._build(name, src, srcdir, library_dirs, include_dirs, libraries, [])
        print(f"triton's own build of {name}: {time.perf_counter() - start:.3f} s")
        return so
    finally:
        knobs.build.impl = capture


knobs.build.impl = capture


@triton.jit
def kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offsets, tl.load(x_ptr + offsets, mask=offsets < N), mask=offsets < N)


x = torch.ones(1000, device="cuda")
kernel[(1,)](x, x, 1000, BLOCK=1024)
torch.cuda.synchronize()

import sysconfig  # noqa: E402

work = tempfile.mkdtemp(prefix="launcher-build-")
for name, src, library_dirs, include_dirs, libraries in captured:
    path = os.path.join(work, name + ".c")
    open(path, "w").write(src)
    includes = [line for line in src.splitlines() if line.startswith("#include")]
    print(f"{name}: {len(src)} bytes, includes {includes}")
    dirs = include_dirs + [work, sysconfig.get_paths()["include"]]
    common = ["-shared", "-fPIC", "-Wno-psabi"] + [build._library_flag(lib) for lib in libraries]
    common += [f"-L{d}" for d in library_dirs] + [f"-I{d}" for d in dirs]
    header = os.path.join(work, "includes.h")
    open(header, "w").write("\n".join(includes) + "\n")

    def timed(label, cmd, repeats=3):
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            result = subprocess.run(cmd, capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            if result.returncode:
                print(f"  {label}: failed {result.stderr[-400:]}")
                return
        print(f"  {label}: {min(times):.3f} s (min of {repeats})")

    cc = shutil.which("gcc")
    for opt in ("-O3", "-O1", "-O0"):
        timed(f"gcc {opt}", [cc, path, opt, "-o", os.path.join(work, "a.so")] + common)
        timed(f"gcc {opt} header precompile", [cc, "-x", "c-header", header, opt, "-fPIC", "-Wno-psabi", "-o",
                                               header + ".gch"] + [f"-I{d}" for d in dirs], repeats=1)
        timed(f"gcc {opt} -include precompiled", [cc, path, opt, "-include", header, "-Winvalid-pch", "-o",
                                                  os.path.join(work, "b.so")] + common)
        timed(f"gcc {opt} -c only",
              [cc, path, opt, "-fPIC", "-c", "-o", os.path.join(work, "a.o")] + [f"-I{d}" for d in dirs])
        timed(f"gcc {opt} -fsyntax-only", [cc, path, opt, "-fsyntax-only"] + [f"-I{d}" for d in dirs])
gcc_version = subprocess.check_output([shutil.which("gcc"), "-dumpfullversion"], text=True).strip()
print(f"python {sys.version.split()[0]}, triton {triton.__version__}, gcc {gcc_version}")
