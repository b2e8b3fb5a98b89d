"""Plot time against board size per backend from `pipscover bench --json` lines on the scale benchmark.

    pipscover planted --suite -o scale/
    for b in auto dlx sat cadical195 cpsat; do pipscover bench scale/ -b $b --timeout 60 --json >> scale.jsonl; done
    python benchmarks/plot_scale.py scale.jsonl encodings/figures/scale.png

Each point is one planted board (five seeds per size); a timeout is drawn at the timeout, hollow. Several
runs of one backend (e.g. the whole suite, then the largest boards again) are drawn as one series.
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

NAME = re.compile(r"planted-(\d+)x(\d+)-(repeated|distinct)")


def main(lines_file: str, figure: str) -> None:
    times: dict[str, list[dict]] = defaultdict(list)  # backend -> its timings, over all its runs
    with open(lines_file, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                run = json.loads(line)
                times[run["backend"]] += run["times"]
    fig, panels = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for panel, pips in zip(panels, ("repeated", "distinct")):
        for backend, timings in times.items():
            points = defaultdict(list)
            for timing in timings:
                match = NAME.search(timing["puzzle"]["file"] or "")
                if not match or match.group(3) != pips:
                    continue
                cells = int(match.group(1)) * int(match.group(2))
                points[timing["outcome"] == "timeout"].append((cells, timing["seconds"]))
            if not points:
                continue
            solved = sorted(points[False])
            line = panel.scatter([c for c, _ in solved], [s for _, s in solved], s=14, label=backend)
            late = points[True]
            panel.scatter([c for c, _ in late], [s for _, s in late], s=30, facecolors="none",
                          edgecolors=line.get_facecolor())
        panel.set_xscale("log")
        panel.set_yscale("log")
        panel.set_xlabel("cells (squares 8x8..20x20; strips 2x100..2x300)")
        panel.set_title(f"planted boards, {pips} dominoes")
        panel.grid(True, which="both", alpha=0.3)
    panels[0].set_ylabel("seconds to a first solution (hollow: timeout)")
    panels[1].legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(figure, dpi=120)


if __name__ == "__main__":
    main(*sys.argv[1:3])
