#!/usr/bin/env python3
"""Five (or more) `bench --json` reports of the same solutions: per solution and size, the median of
each run, which clock timed it, the samples, the gap between the clocks, % of peak and the spread
(max/min - 1). Used by speed.sh --spread and acceptance.sh --bench."""
import json
import sys

runs = [json.load(open(p)) for p in sys.argv[1:]]
for entry in range(len(runs[0]["entries"])):
    for k, fig in enumerate(runs[0]["entries"][entry]["figures"]):
        figs = [r["entries"][entry]["figures"][k] for r in runs]
        med = [f["median_us"] for f in figs]
        name = runs[0]["entries"][entry]["source"].split("/")[-1]
        if min(med) <= 0:
            print(name, fig["test"], [f["verdict"] for f in figs])
            continue
        print(f"{name} {fig['test']}: " + " ".join(f"{m:.2f}" + ("(host)" if f["host_clock"] else "") for m, f in zip(med, figs))
              + f" | samples {min(f['samples'] for f in figs)}-{max(f['samples'] for f in figs)}"
              + f" | event-host gap {max(f['host_median_us'] - f['event_median_us'] for f in figs):.1f} us"
              + f" | % of peak {figs[0]['percent_of_peak']:.1f}"
              + f" | spread {100 * (max(med) / min(med) - 1):.2f}%")
