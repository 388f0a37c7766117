# gpujudge's bootstrap for solutions written in Python, run by the interpreter embedded in the
# runner (python_host.cpp). It imports the learner's file under the learner's own path, checks
# solve's signature against problem.yaml's, and makes the C entry the harness calls: every pointer
# becomes a tensor over the judge's own buffer (no copy), every scalar an int or a float.
import ctypes
import inspect
import json
import linecache
import os
import sys
import tokenize
import traceback
import types

_ENTRY = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_int64),
                          ctypes.POINTER(ctypes.c_double), ctypes.c_int, ctypes.POINTER(ctypes.c_uint64),
                          ctypes.c_void_p, ctypes.c_size_t)
_kept = []  # the entries: ctypes frees a callback whose object is collected
_TYPES = {"float": ("float32", "<f4", 4), "int": ("int32", "<i4", 4)}  # problem_spec.cpp's names


class _Rejected(Exception):
    """Why the file cannot be called: a compile error for the learner."""


def _import_ahead(names):
    for name in names:
        try:
            __import__(name)
        except BaseException:  # the load imports it again and reports what went wrong
            return
    if "triton" in names:
        _warm_triton()


def _warm_triton():
    """Triton's first compile in a process pays about a second before the kernel's own (1.3 s against
    0.06 s for the next, on the H100 machine: tests/gpu/triton_first_compile.py): the hash of its own
    installation that its cache keys hold (0.9 s of reading libtriton and its sources: the judge's,
    computed once, is used instead), the GPU's target and ptxas's version. Paid here, on the import
    thread, while the runner opens the device; the load waits for it (_load), so it counts as
    compile."""
    try:
        import triton
        from triton.compiler.compiler import make_backend
        from triton.runtime import cache
        known = _prepared_triton_key()
        if known:
            _use_triton_key(cache.triton_key, known)
        else:
            cache.triton_key()
        make_backend(triton.runtime.driver.active.get_current_target()).hash()
    except Exception:  # the learner's first compile pays what is left, and reports what fails
        pass


def _prepared_triton_key():
    """Triton's hash of its installation as the judge computed it (python_prepare.py), if this is the
    libtriton it hashed."""
    try:
        with open(os.path.join(_prepared["folder"], "triton_key.json")) as file:
            known = json.load(file)
        found = os.stat(known["libtriton"])
        from triton._C import libtriton
        if (os.path.realpath(libtriton.__file__) == os.path.realpath(known["libtriton"]) and
                (found.st_size, found.st_mtime_ns) == (known["size"], known["mtime_ns"])):
            return known["key"]
    except (KeyError, OSError, ValueError, ImportError):
        pass
    return None


def _use_triton_key(computed, known):
    """Every module of Triton's that holds its triton_key (a cached function) gets one that answers
    the judge's."""
    def triton_key():
        return known
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("triton") and getattr(module, "triton_key", None) is computed:
            module.triton_key = triton_key


_prepared = {}  # the judge's folder for this Python (python_prepared.hpp), read-only
_ahead = {}  # the thread of _import_ahead


def _start(start_json):
    """Where Python finds modules and its caches; then torch's import (seconds) begins on a thread
    of its own while the runner opens the device. The load's own import waits for it."""
    start = json.loads(start_json)
    sys.path[:] = start["path"]
    # torch's and triton's bytecode, compiled by the judge and read-only here; nothing is written
    # (the learner's file is compiled in memory, see _import).
    sys.dont_write_bytecode = True
    if start["prepared"]:
        _prepared["folder"] = start["prepared"]
        sys.pycache_prefix = os.path.join(start["prepared"], "bytecode")
    if start["triton_cache"]:
        triton_cache = start["triton_cache"]
        os.environ["TRITON_CACHE_DIR"] = triton_cache
        # The kernels kept from a run of this very file (kept_kernels.hpp), then Triton's CUDA
        # utilities, built by the judge: over anything of the same name a run may have left. What
        # cannot be copied, Triton builds again.
        prepared_cache = os.path.join(start["prepared"], "triton") if start["prepared"] else ""
        for kept in (start["kept_kernels"], prepared_cache):
            if kept and os.path.isdir(kept):
                import shutil
                try:
                    shutil.copytree(kept, triton_cache, dirs_exist_ok=True)
                except OSError:
                    pass
    import threading
    _ahead["thread"] = threading.Thread(target=_import_ahead, args=(start["imports"],), daemon=True)
    _ahead["thread"].start()
    return "ok"


def _use_launcher_header():
    """Triton builds a C launcher per kernel signature with gcc; with the judge's precompiled header
    of the launchers' includes, each build skips parsing Python.h and cuda.h (0.23 s -> 0.14 s on the
    H100 machine). The flags are Triton's own: gcc uses the header only if they match its own."""
    if "folder" not in _prepared:
        return
    header = os.path.join(_prepared["folder"], "launcher.h")
    if "triton" not in sys.modules or not os.path.isfile(header + ".gch"):
        return
    import triton.runtime.build as build
    if getattr(build._build, "gpujudge", False):
        return
    triton_build = build._build

    def with_header(name, src, srcdir, library_dirs, include_dirs, libraries, ccflags=()):
        return triton_build(name, src, srcdir, library_dirs, include_dirs, libraries, ["-include", header] +
                            list(ccflags))
    with_header.gpujudge = True
    build._build = with_header


def _trimmed(error, shown):
    """The traceback of `error`, its frames in the learner's file alone."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == shown]
    text = "".join(traceback.format_list(frames)) if frames else ""
    head = "Traceback (most recent call last):\n" if text else ""
    return head + text + "".join(traceback.format_exception_only(type(error), error)) + _one_file_note(error)


def _one_file_note(error):
    """A helper module beside the file is not there: the judge runs the file alone, as it hashed it (the
    runner cannot see the learner's folder to tell a helper from a package not installed)."""
    if not isinstance(error, ModuleNotFoundError):
        return ""
    return ("note: a Python submission is one file: modules beside it are not available to the judge "
            "(only the Python's installed packages are); put what you import from them into the file\n")


def _signature(params):
    def annotation(p):
        return "torch.Tensor" if p["pointer"] else ("int" if p["integer"] else "float")
    return "def solve({})".format(", ".join("{}: {}".format(p["name"], annotation(p)) for p in params))


def _import(source_path, shown):
    with open(source_path, "rb") as file:
        raw = file.read()
    # Bytes to compile(): it honours a coding line and a byte-order mark, as Python does.
    with open(source_path, "rb") as file:
        encoding, _ = tokenize.detect_encoding(file.readline)
    source = raw.decode(encoding, "replace")
    # Tracebacks, inspect and Triton's @jit read the source by the learner's path, unseen here.
    linecache.cache[shown] = (len(source), None, source.splitlines(True), shown)
    try:
        code = compile(raw, shown, "exec")
    except SyntaxError as error:
        raise _Rejected("{}:{}: SyntaxError: {}\n  {}".format(shown, error.lineno, error.msg,
                                                                (error.text or "").strip()))
    module = types.ModuleType("solution")
    module.__file__ = shown
    sys.modules["solution"] = module
    try:
        exec(code, module.__dict__)
    except BaseException as error:  # SystemExit too: importing the file must not end the runner
        raise _Rejected("importing the file failed:\n" + _trimmed(error, shown))
    return module


def _parameter_list(parameters):
    """The names as the def spells them: `*` before keyword-only ones, `*args`, `**kwargs`."""
    shown, starred = [], False
    for p in parameters:
        if p.kind == inspect.Parameter.KEYWORD_ONLY and not starred:
            shown.append("*")
        starred = starred or p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_POSITIONAL)
        prefix = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}.get(p.kind, "")
        shown.append(prefix + p.name)
    return ", ".join(shown)


def _checked_solve(module, params):
    expected = _signature(params)
    solve = getattr(module, "solve", None)
    if not callable(solve):
        raise _Rejected("the file defines no function 'solve'; define it exactly as:\n  " + expected)
    try:
        parameters = list(inspect.signature(solve).parameters.values())
    except (TypeError, ValueError):
        parameters = None
    names = [p.name for p in parameters] if parameters is not None else None
    wanted = [p["name"] for p in params]
    # The judge passes the signature's parameters by position: keyword-only ones (after a *) take none.
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    by_position = parameters is not None and all(p.kind in positional for p in parameters[:len(wanted)])
    # Parameters past the signature's that have defaults (a debugging switch) are never passed: harmless.
    extras_defaulted = parameters is not None and all(p.default is not inspect.Parameter.empty
                                                      for p in parameters[len(wanted):])
    if names is None or names[:len(wanted)] != wanted or not by_position or not extras_defaulted:
        raise _Rejected("solve's parameters are ({}); the expected signature is:\n  {}".format(
            _parameter_list(parameters or []), expected))
    return solve


def _tensor_maker(on_device):
    import torch
    made = {}

    def tensor(pointer, count, kind):
        key = (pointer, count, kind)
        if key in made:
            return made[key]
        dtype, typestr, size = _TYPES[kind]
        if count == 0:
            made[key] = torch.empty(0, dtype=getattr(torch, dtype), device="cuda" if on_device else "cpu")
        elif on_device:
            view = types.SimpleNamespace(__cuda_array_interface__={
                "shape": (count,), "typestr": typestr, "data": (pointer, False), "version": 2, "strides": None})
            made[key] = torch.as_tensor(view, device="cuda")
        else:
            made[key] = torch.frombuffer((ctypes.c_byte * (count * size)).from_address(pointer),
                                         dtype=getattr(torch, dtype))
        if len(made) > 256:  # buffers of tests long gone
            made.clear()
        return made[key]
    return tensor


class _Replays:
    """Timed calls on the GPU (python_function.hpp): per buffers and scalars, a CUDA graph of what
    solve's first call on them launched. The runner launches it itself on every later call, on the
    legacy default stream, which the judge's events bracket (a torch too old to hand the graph
    over: replayed here). The judge loads new data into the same buffers before each call and
    checks every call's outputs, so a graph that does not compute the answer from the inputs fails
    as solve would. The graphs stay alive here: the runner's copies run what they hold."""

    def __init__(self):
        self.graphs = {}
        self.stream = None
        self.capturable = True  # until a capture fails: solve synchronises or reads on the host

    def call(self, solve, args, key):
        """The captured graph's handle for the runner, or 0."""
        graph = self.graphs.get(key)
        if graph is None and self.capturable:
            graph = self._capture(solve, args)
            if graph is not None:
                self.graphs[key] = graph
        if graph is None:
            solve(*args)
            return 0
        graph.replay()  # on the current stream: the default one, outside the capture's
        try:
            return int(graph.raw_cuda_graph())
        except Exception:  # torch before 2.8: no keep_graph
            return 0

    def _capture(self, solve, args):
        import torch
        if self.stream is None:
            self.stream = torch.cuda.Stream()
        try:
            graph = torch.cuda.CUDAGraph(keep_graph=True)  # the runner instantiates it too
        except TypeError:
            graph = torch.cuda.CUDAGraph()
        try:
            with torch.cuda.stream(self.stream):  # capture cannot run on the legacy stream
                graph.capture_begin()
                try:
                    solve(*args)
                finally:
                    graph.capture_end()
        except Exception as error:  # said once: the time then includes solve's host time
            return self._uncapturable("solve could not be captured into a CUDA graph ({}: {})".format(
                type(error).__name__, error))
        if self._is_empty(graph):
            return self._uncapturable("solve's captured CUDA graph is empty: its work ran on a stream of its own "
                                      "that its caller's stream does not wait for")
        return graph

    @staticmethod
    def _is_empty(graph):
        """Whether the capture holds no work: what solve put on a stream of its own that the capture's
        stream never waits for ran at once, outside it, and replays would write nothing. Asked of the
        driver (no wait on the device: the call may be held back); unknown (torch before 2.8): no."""
        try:
            count = ctypes.c_size_t(0)
            status = ctypes.CDLL("libcuda.so.1").cuGraphGetNodes(
                ctypes.c_void_p(int(graph.raw_cuda_graph())), None, ctypes.byref(count))
            return status == 0 and count.value == 0
        except Exception:
            return False

    def _uncapturable(self, why):
        self.capturable = False  # said once: the time then includes solve's host time
        print("gpujudge: {}; timed calls call it as it is".format(why), file=sys.stderr)
        return None


_returned = []  # the note below, once a runner


def _note_returned(value):
    """A solve that returns its answer has written nothing: the judge reads the output tensors alone."""
    if value is None or _returned:
        return
    _returned.append(True)
    print("gpujudge: solve returned a value of type {}, which the judge ignores: write the answer into the output tensor in place "
          "(output.copy_(...) or output[:] = ...)".format(type(value).__name__), file=sys.stderr)


def _flush_output():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a stream the learner closed or replaced: nothing of the judge's rests on it
            pass


def _entry(solve, params, shown, on_device):
    tensor = _tensor_maker(on_device)
    replays = _Replays()

    def call(pointers, counts, scalars, replay, graph, error, error_bytes):
        try:
            args = []
            for i, p in enumerate(params):
                if p["pointer"]:
                    args.append(tensor(pointers[i], counts[i], p["type"]))
                else:
                    args.append(int(scalars[i]) if p["integer"] else float(scalars[i]))
            if replay and on_device:
                key = tuple(pointers[i] if p["pointer"] else scalars[i] for i, p in enumerate(params))
                graph[0] = replays.call(solve, args, key)
            else:
                _note_returned(solve(*args))
            return 0
        except BaseException as raised:  # exit() inside solve is no answer either
            text = _trimmed(raised, shown).encode("utf-8", "replace")[:error_bytes - 1]
            ctypes.memmove(error, text, len(text))
            ctypes.memset(error + len(text), 0, 1)
            return 1
        finally:
            if not replay:  # an untimed call's prints are out before the runner labels them
                _flush_output()
    return _ENTRY(call)


def _load(source_path, shown, params_json, backend):
    """'ok <address>' of the entry, or 'rejected <why>'."""
    try:
        # UTF-8 whatever the sandbox's locale (C): print("✓") in solve was a UnicodeEncodeError there,
        # a correct file's runtime error, where a CUDA printf of the same bytes is shown.
        sys.stdout.reconfigure(encoding="utf-8", errors="backslashreplace", line_buffering=True)
        sys.stderr.reconfigure(encoding="utf-8", errors="backslashreplace")
        params = json.loads(params_json)
        try:
            import torch  # noqa: F401  (before the file: its own import errors are then its own)
        except ImportError as error:
            raise _Rejected("torch cannot be imported: {}".format(error))
        solve = _checked_solve(_import(source_path, shown), params)
        if "triton" in sys.modules and "thread" in _ahead:
            _ahead["thread"].join(60)  # _warm_triton: then no call pays Triton's start
        _use_launcher_header()
        entry = _entry(solve, params, shown, backend == "device")
        _kept.append(entry)
        return "ok {}".format(ctypes.cast(entry, ctypes.c_void_p).value)
    except _Rejected as why:
        return "rejected " + str(why)
    except BaseException as error:
        return "rejected " + _trimmed(error, shown)
