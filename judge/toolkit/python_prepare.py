# gpujudge's preparation of a Python installation, run once per installation by the judge itself
# (python_prepared.cpp) as `python3 -I -X pycache_prefix=<folder>/bytecode -c <this> <folder> <with>`:
# nothing of a learner's is on sys.path or runs here. Into <folder>, which runners see read-only:
#   bytecode/       torch's and triton's modules compiled (the importing does it)
#   triton/         Triton's cache holding its CUDA utilities, built here instead of in every runner
#   launcher.h(.gch) the includes of Triton's kernel launchers, precompiled: a runner's launcher
#                   build then skips parsing Python.h and cuda.h
#   triton_key.json Triton's hash of its own installation, which every cache key holds: 0.9 s of
#                   reading libtriton and its sources in each runner otherwise
# Triton's pieces are best effort: a runner without them builds them itself, as before.
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

folder, with_triton = sys.argv[1], sys.argv[2] == "triton"
import torch  # noqa: E402,F401

if with_triton:
    os.environ["TRITON_CACHE_DIR"] = os.path.join(folder, "triton")
    os.environ["TRITON_HOME"] = os.path.join(folder, "triton-home")
    import triton  # noqa: F401
    import triton.language  # noqa: F401


def warn(what, error):
    print("gpujudge: {} not prepared: {}".format(what, error), file=sys.stderr)


def build_cuda_utils():
    from triton.backends.nvidia.driver import CudaUtils
    try:
        CudaUtils()  # builds it into the cache, then loads it: loading needs a CUDA driver
    except ImportError as error:  # built and kept all the same
        warn("loading Triton's CUDA utilities", error)


def compiler_command():
    """The host compiler and flags of Triton's own build (triton.runtime.build._build)."""
    from triton.backends.nvidia import driver
    cc = os.environ.get("CC") or shutil.which("gcc") or shutil.which("clang")
    scheme = sysconfig.get_default_scheme()
    include = sysconfig.get_paths(scheme="posix_prefix" if scheme == "posix_local" else scheme)["include"]
    dirs = list(driver.include_dirs) + [include]
    return cc, ["-O3", "-fPIC", "-Wno-psabi"] + ["-I" + d for d in dirs]


def precompile_launcher_header():
    from triton.backends.nvidia import driver
    cc, flags = compiler_command()
    if not cc or "gcc" not in os.path.basename(os.path.realpath(cc)):
        return warn("the launchers' header", "{} is not gcc".format(cc))  # clang reads no .gch
    launcher = driver.make_launcher({}, {0: "*fp32", 1: "i32"}, None)
    header = os.path.join(folder, "launcher.h")
    with open(header, "w") as file:
        file.write("".join(line + "\n" for line in launcher.splitlines() if line.startswith("#include")))
    subprocess.check_call([cc, "-x", "c-header", header, "-o", header + ".gch"] + flags)
    # A launcher built with it, as a runner will: a header gcc refuses is removed, not used.
    with tempfile.TemporaryDirectory() as scratch:
        source = os.path.join(scratch, "launcher.c")
        with open(source, "w") as file:
            file.write(launcher)
        check = subprocess.run([cc, source, "-include", header, "-Werror=invalid-pch", "-c", "-o",
                                os.path.join(scratch, "launcher.o")] + flags, capture_output=True, text=True)
    if check.returncode != 0:
        os.remove(header + ".gch")
        os.remove(header)
        warn("the launchers' header", check.stderr[-500:])


def record_triton_key():
    """With what it hashed last, so that a runner uses it only for the same libtriton."""
    from triton._C import libtriton
    from triton.runtime.cache import triton_key
    found = os.stat(libtriton.__file__)
    with open(os.path.join(folder, "triton_key.json"), "w") as file:
        json.dump({"key": triton_key(), "libtriton": libtriton.__file__, "size": found.st_size,
                   "mtime_ns": found.st_mtime_ns}, file)


if with_triton:
    for step, what in ((build_cuda_utils, "Triton's CUDA utilities"),
                       (precompile_launcher_header, "the launchers' header"),
                       (record_triton_key, "Triton's own hash")):
        try:
            step()
        except Exception as error:
            warn(what, error)
