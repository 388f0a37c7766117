#!/usr/bin/python3
"""The page end to end in headless Chromium (Debian's chromium, chromium-driver and
python3-selenium): open the list, open a problem, type a solution, click Run and see the verdict;
see its machine code (SASS where nvdisasm is found, else the toolkit's message; PTX through nvcc);
type a compile error and see its line marked; reload and find the draft; ask for the profile
report and see it; pick PyTorch, see its starter, type, switch to CUDA and back and find each
draft, reload into PyTorch, and Run it on a server whose Python has no torch (the judge's own
message); then, on the host backend
(C++ fakes judged without a GPU), Submit a correct and Run a wrong solution and see the tests and
the timing table; Run a PyTorch solution (CPU torch) and see its verdict; grade a small class and
see its Leaderboard; beside a PyTorch one-liner (where this Python has torch), see × torch next
to × baseline. Without a GPU the Run on the device ends in no_device with the file compiled.

  page_test.py GPUJUDGE SOURCE_DIR [--screenshots DIR]

--screenshots writes list.png, problem.png, machine_code.png, compile_error.png, python.png,
result.png, wrong_answer.png and leaderboard.png
(the README's pictures). Fails, saying what is missing, without chromium or selenium.
"""
import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as seen
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError as error:
    sys.exit(f"page_test: {error}: install python3-selenium (./gpujudge installs it)")

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
JUDGING_S = 600  # nvcc on a busy machine, then the judgement

# Typed as a learner types it: CodeMirror indents each new line itself, so no leading spaces.
ATOMIC_SUM = """#include <cuda_runtime.h>
__global__ void sum_kernel(const float* input, float* output, int N) {
int i = blockIdx.x * blockDim.x + threadIdx.x;
if (i < N) atomicAdd(output, input[i]);
}
extern "C" void solve(const float* input, float* output, int N) {
cudaMemset(output, 0, sizeof(float));
sum_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
"""

BROKEN = """__global__ void sum_kernel(const float* input, float* output, int N) {
int i = threadIdx.x
output[0] = input[i];
}
extern "C" void solve(const float* input, float* output, int N) {
sum_kernel<<<1, 1>>>(input, output, N);
}
"""


# A learner's PyTorch solution of Reduction, typed after the starter has been cleared.
PYTORCH_SUM = """import torch


def solve(input: torch.Tensor, output: torch.Tensor, N: int):
output.copy_(input[:N].sum().unsqueeze(0))
"""

# The device server's Python: none, so that a Python Run gets the judge's own message (exit 13).
NO_PYTHON = "/nonexistent/python3"


class Server:
    """`gpujudge serve --port 0` with a history of its own; its URL read from what it prints."""

    def __init__(self, gpujudge, args, data_dir, env_more=None):
        env = dict(os.environ, GPUJUDGE_DATA_DIR=data_dir, **(env_more or {}))
        self.process = subprocess.Popen([gpujudge] + args + ["serve", "--port", "0"], stdout=subprocess.PIPE,
                                        text=True, env=env)
        for line in self.process.stdout:
            found = re.search(r"gpujudge: serving (http://\S+)", line)
            if found:
                self.url = found.group(1)  # with ?token=, which the page keeps in a cookie
                self.base = self.url.split("?")[0]
                return
        sys.exit(f"page_test: the server ended without printing its URL (exit {self.process.wait()})")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=120)


def browser():
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            sys.exit(f"page_test: {path} not found: install {package} (./gpujudge installs it)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # The server and chromedriver are on this machine: never through a proxy the environment names.
    os.environ["no_proxy"] = os.environ["NO_PROXY"] = "127.0.0.1,localhost"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1500,1100", "--hide-scrollbars", "--no-proxy-server"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


class Page:
    def __init__(self, driver, screenshots):
        self.driver = driver
        self.screenshots = screenshots

    def wait(self, condition, seconds=60):
        return WebDriverWait(self.driver, seconds).until(condition)

    def find(self, css, seconds=60):
        return self.wait(seen.visibility_of_element_located((By.CSS_SELECTOR, css)), seconds)

    def editor_text(self):
        return self.driver.execute_script("return document.querySelector('.CodeMirror').CodeMirror.getValue()")

    def type_source(self, text):
        self.find(".CodeMirror").click()
        area = self.driver.find_element(By.CSS_SELECTOR, ".CodeMirror textarea")
        area.send_keys(Keys.CONTROL, "a")
        area.send_keys(Keys.DELETE)
        area.send_keys(text)
        self.wait(lambda d: self.driver.find_element(By.ID, "saved").text == "saved")

    def pick_language(self, name):
        """Picks a language in the picker, and waits for the editor to hold that language's source."""
        Select(self.find("#language")).select_by_visible_text(name)
        mode = "python" if name in ("PyTorch", "Triton") else "text/x-cuda"
        self.wait(lambda d: d.execute_script(
            "return document.querySelector('.CodeMirror').CodeMirror.getOption('mode')") == mode)

    def machine_code(self, kind):
        """Opens the Machine code panel on SASS or PTX; the listing's description, or the error shown."""
        if not self.driver.find_element(By.ID, "machine-code").is_displayed():
            self.find("#machine-code-open").click()
        self.find(f"#asm-{kind}").click()
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#asm-what, #asm-error"), JUDGING_S)
        self.wait(lambda d: d.find_element(By.ID, "asm-status").text == "", JUDGING_S)
        found = self.driver.find_elements(By.CSS_SELECTOR, "#asm-what")
        return (found[0].get_attribute("data-kind"), found[0].text) if found else \
            ("error", self.driver.find_element(By.ID, "asm-error").text)

    def judge(self, button):
        self.driver.find_element(By.ID, button).click()
        verdict = self.find("#verdict", JUDGING_S)
        self.wait(lambda d: not d.find_element(By.ID, button).get_attribute("disabled"), JUDGING_S)
        return verdict.get_attribute("data-verdict")

    def shot(self, name):
        if self.screenshots:
            self.driver.save_screenshot(os.path.join(self.screenshots, name))


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print(f"ok: {message}")


def nvdisasm_found():
    """Whether gpujudge finds nvdisasm, looked for where it looks: PATH, $CUDA_HOME/bin, /usr/local/cuda/bin."""
    folders = [os.path.join(os.environ["CUDA_HOME"], "bin")] if os.environ.get("CUDA_HOME") else []
    return bool(shutil.which("nvdisasm")) or any(
        os.access(os.path.join(folder, "nvdisasm"), os.X_OK) for folder in folders + ["/usr/local/cuda/bin"])


def python_with_torch():
    """Whether the judge finds a Python with torch, looked for as it looks (judge/toolkit/python_probe.hpp):
    $GPUJUDGE_PYTHON, else python3 on PATH, then /usr/bin/python3."""
    chosen = os.environ.get("GPUJUDGE_PYTHON")
    for python in filter(None, [chosen] if chosen else [shutil.which("python3"), "/usr/bin/python3"]):
        try:
            probe = subprocess.run([python, "-c", "import importlib.util, sys; "
                                    "sys.exit(importlib.util.find_spec('torch') is None)"], capture_output=True)
        except OSError:
            continue
        if probe.returncode == 0:
            return True
    return False


def machine_code_flow(page):
    """The Machine code panel on the CUDA source just Run (ATOMIC_SUM): SASS, then PTX."""
    kind, text = page.machine_code("sass")
    if nvdisasm_found():
        check(kind == "sass" and text.startswith("SASS for sm_"), f"Machine code shows the SASS ({text})")
        check("sum_kernel(float const*, float*, int)" in page.find("#asm h3.kernel").text,
              "under the kernel's name")
    else:
        check(kind == "error" and text.startswith("nvdisasm not found on PATH"),
              "no nvdisasm here: the SASS view shows the toolkit lookup's message (SASS itself not checked)")
    kind, text = page.machine_code("ptx")
    check(kind == "ptx" and text.startswith("PTX for sm_") and "compile: ok" in text,
          f"the PTX toggle shows nvcc's PTX ({text})")
    check(page.find("#asm h3.kernel").text == "kernel sum_kernel(float const*, float*, int)",
          "under the kernel's demangled name")
    listing = page.find("#asm pre.listing").text
    check("solution.cu:4  if (i < N) atomicAdd(output, input[i]);" in listing,
          "each source line (the learner's file as solution.cu) above its code")
    check("global.add.f32" in listing, "with the atomic add nvcc made of atomicAdd")
    page.find("#asm .asm-source[data-line='4']").click()
    line = page.driver.execute_script("return document.querySelector('.CodeMirror').CodeMirror.getCursor().line")
    check(line == 3, "a click on a source line puts the editor's cursor on it")
    page.shot("machine_code.png")


def device_flow(page, url):
    driver = page.driver
    driver.get(url)
    reduction = page.find("a[data-slug=reduction]")
    row = reduction.find_element(By.XPATH, "./ancestor::tr")
    check("medium" in row.text, "the list shows Reduction with its difficulty")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#problems tbody tr")) == 18, "the list shows 18 problems")
    page.shot("list.png")
    reduction.click()
    page.wait(lambda d: d.find_element(By.ID, "problem-title").text == "Reduction")
    check('extern "C" void solve(const float* input, float* output, int N)' in page.find("#signature").text,
          "the problem shows its signature")
    rendered = driver.execute_script("return marked.parse('<form action=\"https://x\">\\n\\n*a* <style>p{}</style>')")
    check("<form" not in rendered and "<style" not in rendered and "&lt;form" in rendered and "&lt;style&gt;" in rendered
          and "<em>a</em>" in rendered,
          f"a statement's HTML is shown as text, its Markdown rendered ({rendered!r})")
    check('void solve(const float* input, float* output, int N) {' in page.editor_text(),
          "the editor opens with the starter")
    check(page.driver.find_elements(By.CSS_SELECTOR, ".CodeMirror .cm-keyword"), "the editor highlights CUDA")
    steps = page.find("#path-steps tbody").find_elements(By.CSS_SELECTOR, "tr[data-step]")
    check([row.get_attribute("data-step") for row in steps] == ["1", "2", "3", "4"],
          "beside the statement, the path: Reduction's four steps in order")
    check("vectorized_float4.cu" in steps[-1].text and "%" in steps[-1].text,
          "the last step with the figures measured on the H100")
    medians = [float(row.find_elements(By.TAG_NAME, "td")[2].text) for row in steps]
    marked = [f"slower than step {n}" in row.text for n, row in enumerate(steps)]
    check(marked[1:] == [later > earlier for earlier, later in zip(medians, medians[1:])] and not marked[0],
          f"a step measured slower than the one before says so ({medians})")
    page.type_source(ATOMIC_SUM)
    verdict = page.judge("run")
    compiled = driver.find_element(By.ID, "compile-status").text
    check(verdict in ("no_device", "accepted"), f"Run shows the verdict ({verdict})")
    check(compiled.startswith("compile: ok"), f"Run shows the compile result ({compiled})")
    page.shot("problem.png")
    machine_code_flow(page)
    page.find("#report-profile").click()
    heading = page.find("#report h3", JUDGING_S).text
    check(heading.startswith("profile (exit "), f"Profile shows what gpujudge profile said ({heading})")
    driver.refresh()
    page.wait(lambda d: d.find_element(By.ID, "problem-title").text == "Reduction")
    page.wait(lambda d: "atomicAdd(output, input[i]);" in page.editor_text())
    check(True, "the typed source was saved as a draft and comes back on reload")
    page.type_source(BROKEN)
    check(page.judge("run") == "compile_error", "a compile error is the verdict")
    marked = driver.find_elements(By.CSS_SELECTOR, ".CodeMirror .line-error")
    check(marked, "the compile error's line is marked in the editor")
    message = driver.find_element(By.CSS_SELECTOR, ".CodeMirror .line-message").text
    check('expected a ";"' in message, f"with nvcc's message under it ({message})")
    attempts = driver.find_elements(By.CSS_SELECTOR, "#attempts tbody tr:not(.source)")
    check(len(attempts) == 2, "both attempts are in the problem's history")
    page.shot("compile_error.png")
    kind, text = page.machine_code("ptx")
    check(kind == "ptx" and "compile: failed" in text and "expected a \";\"" in page.find("#asm pre.diagnostics").text,
          "the machine code of a source that does not compile: the compile error, as a message")


def language_flow(page):
    """On Reduction, whose CUDA draft is the compile error typed last: PyTorch and back."""
    driver = page.driver
    cuda_draft = page.editor_text()
    page.pick_language("PyTorch")
    starter = page.editor_text()
    check(starter.startswith("# Reduction: ") and "import torch\n" in starter and
          "def solve(input: torch.Tensor, output: torch.Tensor, N: int):" in starter,
          "PyTorch loads the problem's Python starter (init --lang pytorch's)")
    keywords = [k.text for k in driver.find_elements(By.CSS_SELECTOR, ".CodeMirror .cm-keyword")]
    check("def" in keywords and "import" in keywords, "highlighted as Python")
    check(not driver.find_element(By.ID, "machine-code-open").is_displayed(), "Machine code is CUDA's alone")
    page.type_source(PYTORCH_SUM)
    page.pick_language("CUDA")
    check(page.editor_text() == cuda_draft, "back in CUDA, the CUDA draft as it was")
    page.pick_language("PyTorch")
    check("output.copy_(input[:N].sum().unsqueeze(0))" in page.editor_text() and page.editor_text() != starter,
          "and in PyTorch again, the PyTorch draft")
    driver.refresh()
    page.wait(lambda d: d.find_element(By.ID, "problem-title").text == "Reduction")
    page.wait(lambda d: "input[:N].sum()" in page.editor_text())
    check(Select(page.find("#language")).first_selected_option.text == "PyTorch",
          "a reload opens the problem in the language written last, with its draft")
    driver.find_element(By.ID, "run").click()
    page.wait(lambda d: d.find_element(By.ID, "error").is_displayed(), JUDGING_S)
    error = driver.find_element(By.ID, "error").text
    check(error.startswith("GPUJUDGE_PYTHON: " + NO_PYTHON + " does not exist: set GPUJUDGE_PYTHON to a python3"),
          f"with no Python on the server, Run shows the judge's own message ({error[:60]}...)")
    page.wait(lambda d: not d.find_element(By.ID, "run").get_attribute("disabled"))
    check(page.find("#problem-title").text == "Reduction", "and the page goes on")


def host_flow(page, url, fixtures):
    driver = page.driver
    driver.get(url + "#/problems/tiny_sum")
    page.wait(lambda d: d.find_element(By.ID, "problem-title").text == "Tiny Sum")
    with open(os.path.join(fixtures, "host_solutions", "off_by_one.cpp"), encoding="utf-8") as file:
        page.type_source(file.read().replace("\n    ", "\n"))
    check(page.judge("run") == "wrong_answer", "Run of a wrong solution shows wrong_answer")
    check("expected" in driver.find_element(By.CSS_SELECTOR, "#tests tr.message").text,
          "with the mismatch explained under the failing test")
    page.shot("wrong_answer.png")
    with open(os.path.join(fixtures, "host_solutions", "correct.cpp"), encoding="utf-8") as file:
        page.type_source(file.read().replace("\n    ", "\n"))
    check(page.judge("submit") == "accepted", "Submit of a correct solution shows accepted")
    rows = driver.find_elements(By.CSS_SELECTOR, "#tests tbody tr")
    check(len(rows) == 4 and all("accepted" in row.get_attribute("class") for row in rows),
          "every test passed, the benchmark's too")
    check(page.find("#timing").text.count("accepted") >= 1, "the timing table is shown")
    page.shot("result.png")
    check(not driver.find_element(By.ID, "machine-code-open").is_displayed(),
          "no Machine code on the host backend, whose CUDA drafts are C++ fakes")
    driver.find_element(By.LINK_TEXT, "History").click()
    page.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#all-attempts tbody tr:not(.source)")) == 2)
    check("tiny_sum" in page.find("#bests").text, "History lists the attempts and the personal best")
    python_flow(page, url, fixtures)


def python_flow(page, url, fixtures):
    """A PyTorch solution Run on the host backend: CPU torch over the judge's host buffers."""
    driver = page.driver
    driver.get(url + "#/problems/tiny_sum")
    page.wait(lambda d: d.find_element(By.ID, "problem-title").text == "Tiny Sum")
    page.pick_language("PyTorch")
    check("def solve(input: torch.Tensor, output: torch.Tensor, N: int):" in page.editor_text(),
          "Tiny Sum's PyTorch starter")
    with open(os.path.join(fixtures, "python_solutions", "correct.py"), encoding="utf-8") as file:
        page.type_source(file.read().replace("\n    ", "\n"))
    if not python_with_torch():
        driver.find_element(By.ID, "run").click()
        page.wait(lambda d: d.find_element(By.ID, "error").is_displayed(), JUDGING_S)
        check("has no torch, which Python solutions need" in driver.find_element(By.ID, "error").text,
              "no Python with torch here: Run shows the judge's message (the PyTorch verdict itself not checked)")
        return
    check(page.judge("run") == "accepted", "Run of a PyTorch solution on the host backend shows accepted")
    rows = driver.find_elements(By.CSS_SELECTOR, "#tests tbody tr")
    check(len(rows) == 3 and all("accepted" in row.get_attribute("class") for row in rows),
          "its example and functional tests passed")
    page.shot("python.png")


def torch_flow(page, gpujudge, fixtures, work):
    """× torch beside × baseline: tiny_sum with a PyTorch one-liner, on the host backend (CPU torch)."""
    if importlib.util.find_spec("torch") is None:  # the judge finds this Python's torch, if it has one
        print("skipped: the × torch column (this Python has no torch)")
        return
    home = os.path.join(work, "torch-home")
    shutil.copytree(os.path.join(fixtures, "problems", "tiny_sum"), os.path.join(home, "problems", "tiny_sum"))
    os.makedirs(os.path.join(home, "solutions", "tiny_sum"))
    with open(os.path.join(home, "solutions", "tiny_sum", "pytorch.py"), "w", encoding="utf-8") as one_liner:
        one_liner.write("import torch\n\n\ndef solve(input: torch.Tensor, output: torch.Tensor, N: int):\n"
                        "    output.copy_(input[:N].to(torch.float64).sum().to(torch.float32).unsqueeze(0))\n")
    server = Server(gpujudge, ["--home", home, "--backend", "host"], os.path.join(work, "torch-data"))
    try:
        page.driver.get(server.url + "#/problems/tiny_sum")
        page.wait(lambda d: d.find_element(By.ID, "problem-title").text == "Tiny Sum")
        with open(os.path.join(fixtures, "host_solutions", "correct.cpp"), encoding="utf-8") as file:
            page.type_source(file.read().replace("\n    ", "\n"))
        check(page.judge("submit") == "accepted", "Submit beside a PyTorch one-liner is accepted")
        table = page.find("#timing")
        headings = [th.text for th in table.find_elements(By.CSS_SELECTOR, "thead th")]
        column = headings.index("× torch")
        check(column == headings.index("× baseline") + 1, f"× torch is beside × baseline ({headings})")
        cells = [[td.text for td in row.find_elements(By.CSS_SELECTOR, "td")]
                 for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")]
        rows = {row[0]: row for row in cells}
        check(rows["torch"][column] == "1.00×", f"the one-liner's own row reads 1.00× ({rows})")
        check(re.fullmatch(r"\d+\.\d\d×", rows["yours"][column]) is not None,
              f"and yours the one-liner's median over yours ({rows})")
    finally:
        server.stop()


def token_flow(server):
    """On the loopback too, nothing without the token: any user of the machine can reach 127.0.0.1."""
    check("?token=" in server.url, "the printed URL carries the token")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    for path in ("", "api/history"):
        try:
            opener.open(server.base + path, timeout=60)
            status = 200
        except urllib.error.HTTPError as error:
            status = error.code
        check(status == 401, f"without it, /{path} is refused ({status})")


def grade_class(gpujudge, fixtures, work, data_dir):
    """A class of three on the host backend: two accepted (ranked by time), one wrong answer."""
    class_dir = os.path.join(work, "class")
    for student, solution, extra in (("alice", "correct", ""), ("bob", "correct", "// bob\n"),
                                     ("carol", "off_by_one", "")):
        os.makedirs(os.path.join(class_dir, student))
        with open(os.path.join(fixtures, "host_solutions", solution + ".cpp"), encoding="utf-8") as source:
            text = source.read() + extra
        with open(os.path.join(class_dir, student, "tiny_sum.cpp"), "w", encoding="utf-8") as handed_in:
            handed_in.write(text)
    subprocess.run([gpujudge, "--home", fixtures, "--backend", "host", "--color", "never", "grade", class_dir,
                    "--out", os.path.join(work, "class-grade")], check=True, stdout=subprocess.DEVNULL,
                   env=dict(os.environ, GPUJUDGE_DATA_DIR=data_dir))


def leaderboard_flow(page, url):
    driver = page.driver
    driver.get(url)
    page.find("a[data-slug=tiny_sum]")
    driver.find_element(By.LINK_TEXT, "Leaderboard").click()
    board = page.find("#leaderboard-view section[data-problem=tiny_sum]")
    check("(the latest grade)" in page.find("#leaderboard-source").text,
          "the Leaderboard reads the latest grade's gradebook")
    rows = board.find_elements(By.CSS_SELECTOR, "tr.ranked")
    students = [row.find_element(By.CSS_SELECTOR, "td.student").text for row in rows]
    check(sorted(students) == ["alice", "bob"], f"it ranks the two accepted submissions ({students})")
    check(rows[0].find_element(By.CSS_SELECTOR, "td.number").text == "1", "first place is numbered 1")
    check("On host" in board.text, "within the GPU model that judged them")
    page.shot("leaderboard.png")
    driver.find_element(By.LINK_TEXT, "Problems").click()
    page.find("a[data-slug=tiny_sum]")
    check(page.driver.find_element(By.ID, "leaderboard-view").get_attribute("hidden") is not None,
          "the Leaderboard hides when another view opens")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("gpujudge")
    parser.add_argument("source_dir")
    parser.add_argument("--screenshots")
    args = parser.parse_args()
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)
    driver = browser()
    data_dir = tempfile.mkdtemp(prefix="gpujudge-page-test-")
    servers = []
    try:
        page = Page(driver, args.screenshots)
        servers.append(Server(args.gpujudge, ["--home", args.source_dir], os.path.join(data_dir, "device"),
                              {"GPUJUDGE_PYTHON": NO_PYTHON}))
        device_flow(page, servers[-1].url)
        language_flow(page)
        fixtures = os.path.join(args.source_dir, "tests", "fixtures")
        host_data = os.path.join(data_dir, "host")
        grade_class(args.gpujudge, fixtures, data_dir, host_data)
        servers.append(Server(args.gpujudge, ["--home", fixtures, "--backend", "host"], host_data))
        token_flow(servers[-1])
        host_flow(page, servers[-1].url, fixtures)
        leaderboard_flow(page, servers[-1].base)  # opened without the token: the page's cookie has it
        torch_flow(page, args.gpujudge, fixtures, data_dir)
    except Exception:
        driver.save_screenshot(os.path.join(data_dir, "failure.png"))
        print(f"page_test: the page when it failed: {data_dir}/failure.png", file=sys.stderr)
        raise
    finally:
        driver.quit()
        for server in servers:
            server.stop()
    shutil.rmtree(data_dir, ignore_errors=True)
    print("page test: ok")


if __name__ == "__main__":
    main()
