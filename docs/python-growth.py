# %% [markdown]
# # How fast Q(n) grows, from Python
#
# A notebook in script form: each `# %%` starts a cell (Jupyter, VS Code and
# PyCharm open it as a notebook; `python docs/python-growth.py` runs it
# whole). It counts the n-queens solutions for n = 1..16 with the `queens`
# package, checks each against the published value, and plots log10 Q(n):
# close to a straight line, each step of n multiplies the count by 6 to 9.
# matplotlib is optional: without it the plot is drawn in text.

# %%
import math
import time

import queens

rows = []
for n in range(1, 17):
    started = time.perf_counter()
    total = queens.count(n)
    seconds = time.perf_counter() - started
    assert total == queens.known_total(n), (n, total)
    rows.append((n, total, seconds))

print(f"{'n':>3} {'Q(n)':>12} {'Q(n)/Q(n-1)':>12} {'seconds':>9}")
for (n, total, seconds), before in zip(rows, [None] + rows):
    step = f"{total / before[1]:.2f}" if before and before[1] and total else ""
    print(f"{n:>3} {total:>12,} {step:>12} {seconds:>9.4f}")

# %%
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    plt = None

points = [(n, math.log10(total)) for n, total, _ in rows if total > 0]
if plt is not None:
    figure, axes = plt.subplots(figsize=(6, 3.5))
    axes.plot(*zip(*points), marker="o")
    axes.set_xlabel("n")
    axes.set_ylabel("log10 Q(n)")
    axes.set_title("Solutions of the n-queens puzzle (OEIS A000170)")
    figure.tight_layout()
    figure.savefig("python-growth.png", dpi=100)
    print("plotted to python-growth.png")
else:
    print("log10 Q(n), one # per half decade (install matplotlib for a picture):")
    for n, level in points:
        print(f"{n:>3} {'#' * round(2 * level):<16} {level:.2f}")
