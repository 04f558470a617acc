"""Confirm a study's selected best on seeds that no selection touched.

The re-evaluation picks the best of the top candidates on a fresh seed set, and the value
it picks by leans high: it is the largest of several noisy figures. The confirmation
replays that one candidate on the games that follow the re-evaluation's on the same root
seed (games ``R .. R+C-1`` where the re-evaluation played ``0 .. R-1``): a game's seed
depends only on (root, index), so these games are none of the re-evaluation's, and none of
the search's, which has a root of its own. Its value, with its interval, is what ``run``,
``report``, ``best:`` and the dashboard call the study's result; the re-evaluated value
stays beside it as the selection value. It is stored as the study user attribute
``confirmation``, keyed by the selected trial and the seeds, so it is played once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import optuna

from tuning.evaluation import Evaluation, WorkerPool, candidate_bot, evaluate

#: the study user attribute holding the confirmation of the re-evaluated best
CONFIRM_ATTR = "confirmation"


def confirmation_seeds(reevaluation: dict[str, Any], games: int) -> dict[str, int]:
    """Root seed, first game and game count of the confirmation that follows a stored
    re-evaluation: the same root, starting after the re-evaluation's games."""
    return {"seed": int(reevaluation["seed"]), "start": int(reevaluation["games"]),
            "games": int(games)}


def confirm(study: optuna.Study, spec: Any, reevaluation: dict[str, Any], *,
            force: bool = False, pool: WorkerPool | None = None,
            progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play the re-evaluated best on the confirmation seeds (once per selection and seed
    set; ``force`` to redo) and store the result; {} when nothing was selected."""
    best = reevaluation.get("best")
    if not best:
        return {}
    ev_spec = spec.evaluation
    seeds = confirmation_seeds(reevaluation, ev_spec.confirmations)
    key = {"trial": best["trial"], **seeds}
    old = study.user_attrs.get(CONFIRM_ATTR)
    if old and old.get("key") == key and not force:
        return old
    bot = candidate_bot({"strategy": spec.strategy, "params": dict(best["params"])})
    games = seeds["games"]
    block = max(ev_spec.block, -(-games // (4 * ev_spec.jobs)))
    blocks = -(-games // block)
    on_block = None
    if progress is not None:
        where = {"index": 0, "total": 1, "games": games, "blocks": blocks, "confirm": True}
        progress({"event": "reevaluate", "candidate": {"strategy": spec.strategy,
                                                        "params": dict(best["params"])},
                  **where})

        def on_block(i: int, mean: float) -> bool:
            progress({"event": "reevaluate-block", "block": i + 1, **where})
            return False

    result = evaluate(spec.scorer(), bot, games=games, seed=seeds["seed"], block=block,
                      pool=pool, on_block=on_block, stoppable=False, start=seeds["start"])
    data = {"key": key, **seeds, "trial": best["trial"], "params": dict(best["params"]),
            **_figures(result)}
    study.set_user_attr(CONFIRM_ATTR, data)
    return data


def _figures(result: Evaluation) -> dict[str, Any]:
    ci = [result.mean, result.mean] if result.exact else list(result.ci95)
    return {"mean": result.mean, "stderr": result.stderr, "ci95": ci,
            "games": result.games, "exact": result.exact}


def stored_confirmation(study: optuna.Study, reevaluation: dict[str, Any]
                        ) -> dict[str, Any] | None:
    """The stored confirmation when it confirms the stored re-evaluation's best (a study
    re-evaluated again since holds a stale one, which is not shown)."""
    data = study.user_attrs.get(CONFIRM_ATTR)
    best = reevaluation.get("best") or {}
    if not data or data.get("trial") != best.get("trial"):
        return None
    if data.get("seed") != reevaluation.get("seed") or \
            data.get("start") != reevaluation.get("games"):
        return None
    return data


def describe(best: dict[str, Any]) -> str:
    """Where a reported best's figure comes from, in words, with its selection value beside
    it: confirmed, re-evaluated only (a study from before confirmations), exact or search."""
    if best.get("exact"):
        return "exact"
    if best.get("confirmed"):
        sel_lo, sel_hi = best["selection_ci95"]
        return (f"confirmed on {best['games']:,} further fresh games, root seed "
                f"{best.get('seed')} from game {best.get('start'):,}; selection value "
                f"(re-evaluated on {best['selection_games']:,} games) "
                f"{best['selection_value']:.4f}, 95% CI {sel_lo:.4f}..{sel_hi:.4f}; search "
                f"value, the dashboard's: {_num(best.get('search_value'))}")
    if best.get("reevaluated") and best.get("games"):
        return (f"re-evaluated on {best['games']:,} fresh games, root seed "
                f"{best.get('seed')}: the selection value, not confirmed yet (tabletune "
                f"report confirms it); search value, the dashboard's: "
                f"{_num(best.get('search_value'))}")
    return "search value, not re-evaluated"


def _num(value: Any) -> str:
    return "-" if value is None else f"{value:.4f}"
