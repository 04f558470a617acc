"""PNG figures of the deck-building report (matplotlib, headless)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from games.core import Estimate

SIMPLE = ["random", "greedy", "expensive", "picky"]
COLORS = {"optimal": "black", "random": "tab:gray", "greedy": "tab:red",
          "expensive": "tab:orange", "picky": "tab:blue", "heuristic": "tab:green",
          "flatmc": "tab:purple"}


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def fig_scores(curves: dict[str, list[float]], mc: list[tuple[int, Estimate]], path: Path,
               tmax: int, title: str) -> None:
    """Exact curves against T with the flat Monte Carlo points and their intervals."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 5))
    tmax = min(tmax, len(curves["optimal"]) - 1)
    ts = np.arange(tmax + 1)
    for name, ys in curves.items():
        label = "heuristic (tuned at T=31)" if name == "heuristic" else name
        ax.plot(ts[1:], np.asarray(ys)[1:tmax + 1], label=label, color=COLORS[name])
    pts = [(t, e) for t, e in mc if t <= tmax]
    if pts:
        ax.errorbar([t for t, _ in pts], [e.mean for _, e in pts],
                    yerr=[1.96 * e.stderr for _, e in pts], fmt="o", ms=3,
                    color=COLORS["flatmc"], label="flat Monte Carlo (simulated, 95% CI)")
    ax.set_xlabel("game length T (turns)")
    ax.set_ylabel("expected final score")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fig_actions(shares: dict[int, np.ndarray], path: Path) -> None:
    """Per-turn shares of pass / treasure / victory under the optimal policy."""
    plt = _plt()
    fig, axes = plt.subplots(1, len(shares), figsize=(13, 4), sharey=True, squeeze=False)
    axes = axes[0]
    for ax, (t, sh) in zip(axes, shares.items(), strict=True):
        x = np.arange(1, t + 1)
        ax.bar(x, sh[:, 1], color="tab:green", label="treasure")
        ax.bar(x, sh[:, 2], bottom=sh[:, 1], color="tab:red", label="victory")
        ax.bar(x, sh[:, 0], bottom=sh[:, 1] + sh[:, 2], color="tab:blue", label="pass")
        ax.set_title(f"DP policy, T = {t}")
        ax.set_xlabel("turn")
    axes[0].set_ylabel("share of games")
    axes[0].legend(loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fig_geometric(rows: list[dict], path: Path) -> None:
    """Simulated means (no truncation) of the simple strategies and flat MC; the optimum
    exact where its truncation bound is under 1% of the value, else as a lower bound."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 5))
    inv = np.array([1 / r["alpha"] for r in rows])
    for name in SIMPLE + ["flatmc"]:
        ax.errorbar(inv, [r["sim"][name]["mean"] for r in rows],
                    yerr=[1.96 * r["sim"][name]["stderr"] for r in rows], fmt="o-", ms=3,
                    color=COLORS[name], label=f"{name} (simulated, 95% CI)")
    tight = np.array([r["error_bound"] <= 0.01 * r["exact"]["optimal"] for r in rows])
    opt = np.array([r["exact"]["optimal"] for r in rows])
    ax.plot(inv[tight], opt[tight], "k-", lw=2, label="optimal (exact)")
    if (~tight).any():
        ax.plot(inv[~tight], opt[~tight], "kv", mfc="none",
                label="optimal: lower bound (truncated DP)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("1 / alpha (expected number of turns)")
    ax.set_ylabel("expected final score")
    ax.set_title("Probabilistic end: the game ends after each turn with chance alpha")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fig_cost(rows: list[dict], path: Path) -> None:
    """Wall and CPU seconds and peak memory of one DP solve against T (log scales)."""
    plt = _plt()
    fig, ax1 = plt.subplots(figsize=(7, 4.5))
    ts = [r["turns"] for r in rows]
    ax1.loglog(ts, [r["seconds"] for r in rows], "o-", label="wall seconds")
    ax1.loglog(ts, [r["cpu_seconds"] for r in rows], "^-", label="CPU seconds")
    ax1.set_xlabel("T")
    ax1.set_ylabel("seconds")
    ax2 = ax1.twinx()
    ax2.plot(ts, [max(r["above_base_mb"], 0.1) for r in rows], "s--", color="tab:red",
             label="peak memory above baseline (MB)")
    ax2.set_yscale("log")
    ax2.set_ylabel("MB")
    ax1.set_title("Exact DP with stored policy: cost against T")
    fig.legend(loc="upper left", bbox_to_anchor=(0.12, 0.88))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
