#!/usr/bin/env python3
"""tools/speed_table.py on bench's JSON: the fixture home's measurements (tests/fixtures/path_home, the shape
test_path.cpp checks against bench_json) and variants of it made here."""
import copy
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import speed_table  # noqa: E402

HOME = ROOT / "tests" / "fixtures" / "path_home"
MEASURED = HOME / "solutions" / "measured-h100.json"
HEADER = ("| problem | fastest solution | size | median µs | % of ceiling | × CUB | × PyTorch |\n"
          "|---|---|---|---:|---:|---:|---:|")


class SpeedTable(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.tmp = pathlib.Path(self.folder.name)
        self.reports = json.loads(MEASURED.read_text())

    def tearDown(self):
        self.folder.cleanup()

    def table(self, reports):
        measured = self.tmp / "measured.json"
        measured.write_text(json.dumps(reports))
        return speed_table.table(measured, HOME)

    def test_the_fastest_step_at_the_largest_size(self):
        self.assertEqual(speed_table.table(MEASURED, HOME),
                         "Measured on NVIDIA H100 80GB HBM3 (measured ceiling 3072 GB/s) with `gpujudge bench --all "
                         "--json`, at each problem's largest benchmark size (of equal sizes, the one furthest from the "
                         "ceiling):\n\n" + HEADER + "\n"
                         "| tiny_sum | `block_tree.cu` (step 2) | N = 100000 | 6.2 | 2.1 % | 1.27 | – |")

    def test_of_sizes_moving_as_many_bytes_the_one_furthest_from_the_ceiling(self):
        reports = copy.deepcopy(self.reports)
        for entry in reports[0]["entries"]:  # a second size as large, where every step is further off
            for figures in list(entry["figures"]):
                other = dict(figures, test="N = 100000, other shape", median_us=2 * figures["median_us"],
                             gbps=figures["gbps"] / 2, percent_of_peak=figures["percent_of_peak"] / 2)
                entry["figures"].append(other)
        self.assertIn("| tiny_sum | `block_tree.cu` (step 2) | N = 100000, other shape | 12.4 | 1.1 % |",
                      self.table(reports))
        for entry in reports[0]["entries"]:  # a smaller size is never the largest, however far off
            entry["figures"][-1]["gbps"] /= 10
        self.assertIn("| tiny_sum | `block_tree.cu` (step 2) | N = 100000 | 6.2 | 2.1 % |", self.table(reports))

    def test_a_size_no_longer_a_benchmark_of_the_problem_is_left_out(self):
        reports = copy.deepcopy(self.reports)
        for entry in reports[0]["entries"]:  # as large, further off: the one shown while it is a benchmark
            entry["figures"].append(dict(entry["figures"][0], test="N = 100000, retired",
                                         percent_of_peak=entry["figures"][0]["percent_of_peak"] / 2))
        measured = self.tmp / "measured.json"
        measured.write_text(json.dumps(reports))
        home = self.tmp / "home"
        (home / "problems" / "tiny_sum").mkdir(parents=True)
        (home / "solutions").symlink_to(HOME / "solutions")
        yaml_text = "tests:\n  benchmarks:\n    - {{name: {}, scalars: {{N: 100000}}, seed: 7}}\n"
        (home / "problems" / "tiny_sum" / "problem.yaml").write_text(yaml_text.format('"N = 100000, retired"'))
        self.assertIn("| tiny_sum | `block_tree.cu` (step 2) | N = 100000, retired |", speed_table.table(measured, home))
        (home / "problems" / "tiny_sum" / "problem.yaml").write_text(yaml_text.format('"N = 100000"'))
        self.assertIn("| tiny_sum | `block_tree.cu` (step 2) | N = 100000 | 6.2 |", speed_table.table(measured, home))

    def test_the_baseline_and_files_off_the_path_are_not_candidates(self):
        reports = copy.deepcopy(self.reports)
        entries = reports[0]["entries"]
        entries[0]["figures"][0]["median_us"] = 1.0  # the baseline (library.cu): faster, but no step
        off_path = copy.deepcopy(entries[2])
        off_path["source"] = "/root/gpujudge/solutions/tiny_sum/forgets_zeroing.cu"  # declares no step
        off_path["figures"][0]["median_us"] = 2.0
        entries.append(off_path)
        self.assertIn("| tiny_sum | `block_tree.cu` (step 2) |", self.table(reports))

    def test_a_step_that_failed_its_timed_run_is_not_the_fastest(self):
        reports = copy.deepcopy(self.reports)
        reports[0]["entries"][2]["figures"][0]["verdict"] = "impossible_time"
        self.assertIn("| tiny_sum | `naive_atomics.cu` (step 1) | N = 100000 | 61.3 | 0.2 % | 0.13 | – |",
                      self.table(reports))

    def test_the_largest_size_is_the_last_and_pytorch_is_compared_there(self):
        reports = copy.deepcopy(self.reports)
        for entry in reports[0]["entries"]:
            small = copy.deepcopy(entry["figures"][0])
            small["test"], small["median_us"] = "N = 5", small["median_us"] / 100
            entry["figures"].insert(0, small)
        torch = copy.deepcopy(reports[0]["entries"][1])
        torch["source"] = "/root/gpujudge/solutions/tiny_sum/pytorch.py"
        torch["figures"][1]["median_us"] = 9.3
        reports[0]["entries"].append(torch)
        self.assertIn("| tiny_sum | `block_tree.cu` (step 2) | N = 100000 | 6.2 | 2.1 % | 1.27 | 1.50 |",
                      self.table(reports))

    def test_no_step_measured_and_no_file(self):
        reports = copy.deepcopy(self.reports)
        reports[0]["entries"] = reports[0]["entries"][:1]  # the baseline alone
        self.assertIn("| tiny_sum | not measured | | | | | |", self.table(reports))
        self.assertEqual(speed_table.table(self.tmp / "absent.json", HOME),
                         "No H100 measurements are checked in yet: `solutions/measured-h100.json` is what "
                         "`gpujudge bench --all --json` prints on the H100 (see below).")

    def test_write_then_check(self):
        readme = self.tmp / "README.md"
        readme.write_text(f"# x\n\n{speed_table.BEGIN}\nold table\n{speed_table.END}\n\nafter\n")
        script = [sys.executable, str(ROOT / "tools" / "speed_table.py"), "--measured", str(MEASURED), "--home",
                  str(HOME), "--readme", str(readme)]
        stale = subprocess.run(script + ["--check"], capture_output=True, text=True)
        self.assertEqual(stale.returncode, 1)
        self.assertIn("speed table is stale", stale.stdout)
        subprocess.run(script + ["--write"], check=True)
        self.assertIn("| tiny_sum | `block_tree.cu` (step 2) |", readme.read_text())
        self.assertTrue(readme.read_text().endswith(f"{speed_table.END}\n\nafter\n"))
        self.assertEqual(subprocess.run(script + ["--check"], capture_output=True).returncode, 0)


if __name__ == "__main__":
    unittest.main()
