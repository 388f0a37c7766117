#!/usr/bin/env python3
"""How many kernels Triton compiles for a Triton solution over its problem's tests, counted without a
GPU (issue 18: each one costs a first submit 0.2-0.5 s of JIT on the H100 machine). triton is
replaced by a recorder and the tensors live on torch's meta device; a launch's compile key is what
Triton 3's is: the kernel, its constexpr values, and per integer argument whether it is 1, a
multiple of 16 or neither (pointers are the judge's, 16-byte aligned). Launchers are built per
kernel signature, the arguments that are 1 counted as constants.

  tests/triton_specializations.py [problem...]   (default: every problem with a triton.py)
"""
import importlib.util
import math
import os
import sys
import types

import torch
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def int_class(value):
    return "1" if value == 1 else ("16" if value % 16 == 0 else "")


class Recorder:
    def __init__(self):
        self.kernels, self.launchers = set(), set()

    def jit(self, fn=None, **options):
        if fn is None:
            return lambda f: self.jit(f, **options)
        recorder = self
        skipped = set(options.get("do_not_specialize", ()))
        names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
        constexprs = {n for n, a in fn.__annotations__.items() if a is Constexpr or a == "tl.constexpr"}

        class Kernel:
            def __getitem__(self, grid):
                def launch(*args, **kwargs):
                    values = dict(zip(names, args), **kwargs)
                    key, signature = [fn.__name__], [fn.__name__]
                    for name in names:
                        value = values.get(name)
                        if name in constexprs:
                            key.append((name, value))
                            signature.append((name, "constexpr"))
                        elif isinstance(value, bool) or not isinstance(value, int):
                            signature.append((name, type(value).__name__))
                        else:
                            cls = "" if name in skipped else int_class(value)
                            key.append((name, cls))
                            signature.append((name, "1" if cls == "1" else "int"))
                    recorder.kernels.add(tuple(key))
                    recorder.launchers.add(tuple(signature))
                return launch
        return Kernel()


class Constexpr:
    pass


def fake_triton(recorder):
    triton = types.ModuleType("triton")
    triton.jit = recorder.jit
    triton.cdiv = lambda a, b: (a + b - 1) // b
    triton.next_power_of_2 = lambda n: 1 << max(0, math.ceil(math.log2(max(n, 1))))
    language = types.ModuleType("triton.language")
    language.constexpr = Constexpr
    language.__getattr__ = lambda name: None  # tl.float32 and the like, read at import only
    triton.language = language
    return {"triton": triton, "triton.language": language}


def count(problem):
    path = os.path.join(ROOT, "solutions", problem, "triton.py")
    spec = yaml.safe_load(open(os.path.join(ROOT, "problems", problem, "problem.yaml")))
    recorder = Recorder()
    sys.modules.update(fake_triton(recorder))
    loader = importlib.util.spec_from_file_location("solution_" + problem, path)
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    torch.cuda.get_device_properties = lambda device=None: types.SimpleNamespace(multi_processor_count=132)
    tests = spec["tests"]
    for test in tests.get("examples", []) + tests.get("functional", []) + tests.get("benchmarks", []):
        scalars = dict(test["scalars"])
        args = []
        for p in spec["signature"]:
            if p["type"].endswith("*"):
                size = 1
                for dim in p.get("shape", [1]):
                    size *= int(eval(str(dim), {}, dict(scalars)))
                dtype = torch.float32 if "float" in p["type"] else torch.int32
                args.append(torch.empty(size, dtype=dtype, device="meta"))
            else:  # as the judge passes them: an int for an int parameter, else a float
                args.append(int(scalars[p["name"]]) if p["type"] == "int" else float(scalars[p["name"]]))
        module.solve(*args)
    return len(recorder.kernels), len(recorder.launchers)


def main():
    problems = sys.argv[1:] or sorted(p for p in os.listdir(os.path.join(ROOT, "solutions"))
                                      if os.path.exists(os.path.join(ROOT, "solutions", p, "triton.py")))
    print("| problem | kernels | launchers |\n|---|---:|---:|")
    for problem in problems:
        kernels, launchers = count(problem)
        print(f"| {problem} | {kernels} | {launchers} |")


if __name__ == "__main__":
    main()
