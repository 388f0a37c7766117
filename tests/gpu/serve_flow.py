#!/usr/bin/env python3
"""The page's flow through `gpujudge serve`'s API, from Python's standard library alone (for GPU
machines without a browser): start a server on a free port with a fresh history, then for each
file Run and Submit it as the page does (POST the source, read the server-sent events as they
come), check the verdicts, and check the history and the personal best.

  serve_flow.py GPUJUDGE PROBLEM FILE=VERDICT[,SUBMIT_VERDICT]... [--home DIR] [--backend host]
                [--allow-no-device]

FILE=VERDICT expects VERDICT from both Run and Submit; FILE=A,B expects A from Run and B from
Submit. --allow-no-device takes no_device (with the file compiled) in place of any expected
verdict: what a machine without a GPU can check. Exit 0 when every verdict is as expected.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request


def start_server(args, data_dir):
    command = [args.gpujudge, "--color", "never"]
    if args.home:
        command += ["--home", args.home]
    if args.backend:
        command += ["--backend", args.backend]
    command += ["serve", "--port", "0"]
    env = dict(os.environ, GPUJUDGE_DATA_DIR=data_dir)
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=sys.stderr, text=True, env=env)
    for line in server.stdout:
        found = re.search(r"gpujudge: serving (http://\S+)", line)
        if found:  # http://host:port/?token=...: every request sends the token
            url, _, token = found.group(1).partition("/?token=")
            OPENER.addheaders = [("Authorization", f"Bearer {token}")]
            return server, url.rstrip("/")
    sys.exit(f"the server ended without printing its URL (exit {server.wait()})")


def events(response):
    """Yields (name, data) for each server-sent event, as it arrives."""
    name, data = "message", ""
    for raw in response:
        line = raw.decode("utf-8").rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data += line[6:]
        elif not line and data:
            yield name, json.loads(data)
            name, data = "message", ""


# The server is on this machine: never through a proxy the environment may name.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def language_of(path, source):
    """What the page's language picker would show for the file."""
    if not path.endswith(".py"):
        return "cuda"
    return "triton" if re.search(r"^\s*(import|from)\s+triton\b", source, re.M) else "pytorch"


def judge(url, problem, how, source, language):
    request = urllib.request.Request(f"{url}/api/problems/{problem}/{how}", method="POST",
                                     data=json.dumps({"source": source, "language": language}).encode(),
                                     headers={"Content-Type": "application/json"})
    with OPENER.open(request, timeout=1800) as response:
        for name, data in events(response):
            if name == "queued":
                print(f"    queued, {data['ahead']} ahead")
            elif name == "progress":
                print(f"    {data['text']}")
            elif name == "error":
                raise RuntimeError(data["message"])
            elif name == "result":
                return data
    raise RuntimeError("the stream ended without a result")


def describe(result):
    lines = [f"    verdict {result['verdict']} (exit {result['exit_code']}) {result.get('reason', '')}".rstrip()]
    if not result["compile"]["ok"]:
        lines.append("    " + result["compile"]["diagnostics"].replace("\n", "\n    "))
    for test in result["tests"]:
        if test["verdict"] not in ("accepted", "skipped"):
            lines.append(f"    test '{test['name']}': {test['verdict']}\n      " +
                         test["message"].rstrip().replace("\n", "\n      "))
    for entry in (result.get("bench") or {}).get("entries", []):
        for f in entry["figures"]:
            lines.append(f"    {'baseline' if entry['baseline'] else 'yours':8} {f['test']:12} {f['verdict']:14}"
                         f" {f['median_us']:10.1f} µs {f['gbps']:7.0f} GB/s {f['percent_of_peak']:5.1f} %"
                         f" {f['speedup']:5.2f}x")
    return "\n".join(lines)


def expected_ok(result, expected, allow_no_device):
    if result["verdict"] == expected:
        return True
    return allow_no_device and result["verdict"] == "no_device" and result["compile"]["ok"]


def get(url, path):
    with OPENER.open(f"{url}{path}", timeout=60) as response:
        return json.load(response)


def page_loads(url):
    """The page and every script and style sheet it names are served (from this machine)."""
    with OPENER.open(f"{url}/", timeout=60) as response:
        page = response.read().decode("utf-8")
    assets = re.findall(r'(?:src|href)="(/[^"]+)"', page)
    for asset in assets:
        with OPENER.open(f"{url}{asset}", timeout=60) as response:
            if response.status != 200 or not response.read():
                return False
    print(f"the page loads, with {len(assets)} scripts and style sheets")
    return len(assets) > 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("gpujudge")
    parser.add_argument("problem")
    parser.add_argument("files", nargs="+", metavar="FILE=VERDICT[,SUBMIT_VERDICT]")
    parser.add_argument("--home")
    parser.add_argument("--backend")
    parser.add_argument("--allow-no-device", action="store_true")
    args = parser.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory(prefix="gpujudge-serve-flow-") as data_dir:
        server, url = start_server(args, data_dir)
        print(f"server at {url}")
        try:
            if not page_loads(url):
                print("  FAIL: the page or one of its libraries is not served")
                failures += 1
            submitted = 0
            for spec in args.files:
                path, _, verdicts = spec.partition("=")
                run_verdict, _, submit_verdict = verdicts.partition(",")
                with open(path, encoding="utf-8") as file:
                    source = file.read()
                for how, expected in (("run", run_verdict), ("submit", submit_verdict or run_verdict)):
                    print(f"{how} {path} as {language_of(path, source)} (expect {expected})")
                    result = judge(url, args.problem, how, source, language_of(path, source))
                    print(describe(result))
                    if not expected_ok(result, expected, args.allow_no_device):
                        print(f"  FAIL: {how} {path}: {result['verdict']}, expected {expected}")
                        failures += 1
                submitted += 1
            attempts = get(url, f"/api/history?problem={args.problem}")["attempts"]
            if len(attempts) != 2 * submitted or any(a["source_text"] is None for a in attempts):
                print(f"  FAIL: the history holds {len(attempts)} attempts, expected {2 * submitted} with sources")
                failures += 1
            best = next(p for p in get(url, "/api/problems") if p["slug"] == args.problem)["personal_best"]
            print(f"personal best: {best}")
        finally:
            server.terminate()
            server.wait(timeout=120)
    print("serve flow: " + ("ok" if not failures else f"{failures} failure(s)"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
