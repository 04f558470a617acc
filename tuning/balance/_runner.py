"""A balance study: the game's rules (options marked ``rule``) tuned by Optuna towards the
``[balance]`` target (:mod:`tuning.balance._spec`).

Every trial plays its rules on the same seeds (common random numbers) and is scored by its
distance from the target: the first seat's score, or the root mean square distance from a
target matrix. The trials are kept in the study's storage (the journal by default): the same
command continues a stopped or killed study. The best few are then replayed on fresh seeds,
the one closest there is selected, and it is confirmed against the printed rules on further
fresh seeds, with the line-ups of ``elsewhere`` played under both: what the change costs.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable
from typing import Any

import optuna
from optuna.trial import TrialState

from games import registry
from games.capabilities import use
from games.core import InputError, Record
from tuning._spec import StudySpec
from tuning.evaluation import WorkerPool, derived_seed
from tuning.study import default_location, in_runs_dir, make_sampler, open_storage

__all__ = ["BalanceInterrupted", "run_balance"]

FINGERPRINT = "balance_fingerprint"


class BalanceInterrupted(Exception):
    """Ctrl-C or SIGTERM: the finished trials are kept in ``location``."""

    def __init__(self, location: str, done: int, total: int) -> None:
        super().__init__(f"stopped after {done} of {total} trials")
        self.location, self.done, self.total = location, done, total


def fingerprint(spec: StudySpec) -> str:
    """What makes two balance trials comparable: game, options, bots, target, games, seeds
    and space."""
    from tuning._identity import option_identity

    b = spec.balance
    keys = {"game": spec.game, "options": option_identity(registry.get(spec.game),
                                                           spec.checked),
            "bots": list(b.bots), "target": b.target, "matrix": b.matrix,
            "games": spec.evaluation.games, "seed": spec.evaluation.seed,
            "space": {k: [v.type, v.low, v.high, v.step, v.choices]
                      for k, v in sorted(spec.space.items())}}
    return hashlib.sha256(json.dumps(keys, sort_keys=True, default=str).encode()
                          ).hexdigest()[:16]


class _Player:
    """Plays a balance study's line-ups under given rules on a worker pool."""

    def __init__(self, spec: StudySpec, pool: WorkerPool) -> None:
        self.spec, self.pool = spec, pool
        self.game = registry.get(spec.game)

    def options(self, rules: dict[str, Any]) -> Any:
        return self.game.check_options({**dict(self.spec.options), **rules})

    def match(self, texts: list[str] | tuple[str, ...], rules: dict[str, Any], games: int,
              seed: int) -> dict[str, Any]:
        """Seats rotated: each seat's and each bot's score, and the mean turns."""
        from tuning.evaluation import run_match

        specs = [self.game.parse_bot(t) for t in texts]
        data = run_match(self.game.name, specs, self.options(rules), games=games, seed=seed,
                         pool=self.pool, rotate=True).to_dict()
        rows = list(data["bots"].values())
        bots = [_record(r).to_dict() for r in rows]
        if data["players"] == 1:  # one seat: each bot plays its own run; the seat is the first's
            seats = bots[:1]
        else:
            seats = []
            for k in range(len(specs)):
                seat = Record()
                for r in rows:
                    seat.add(_record(r["per_seat"][k]))
                seats.append(seat.to_dict())
        return {"seats": seats, "bots": bots, "mean_turns": data["mean_turns"],
                "games": data["games"], "capped": data["capped_games"]}

    def score(self, rules: dict[str, Any], games: int, seed: int) -> tuple[float, dict]:
        """A trial's value (distance from the target) and what it measured."""
        b = self.spec.balance
        if b.matrix is None:
            played = self.match(b.bots, rules, games, seed)
            first = played["seats"][0]
            return abs(first["score"] - b.target), {"first_seat": first,
                                                    "mean_turns": played["mean_turns"],
                                                    "capped": played["capped"]}
        cells, errors = {}, []
        for i in range(len(b.bots)):
            for j in range(i + 1, len(b.bots)):
                played = self.match((b.bots[i], b.bots[j]), rules, games,
                                    derived_seed(seed, f"pair:{i}:{j}"))
                row = played["bots"][0]
                cells[f"{i},{j}"] = row
                errors += [(row["score"] - b.matrix[i][j]) ** 2,
                           (1.0 - row["score"] - b.matrix[j][i]) ** 2]
        return math.sqrt(sum(errors) / len(errors)), {"matrix": cells}


def _record(row: dict[str, Any]) -> Record:
    """A match row's wins, ties and losses (its score and interval as `play` gives them)."""
    return Record(int(row["wins"]), int(row["ties"]), int(row["losses"]))


def _study(spec: StudySpec, location: str | None) -> tuple[optuna.Study, str]:
    given = location or spec.optuna.storage
    where = given or default_location(spec.name)
    opened = open_storage(where, create=True,
                             make_folder=not given or in_runs_dir(where))
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(study_name=spec.name, storage=opened.storage,
                                direction="minimize", sampler=make_sampler(spec),
                                load_if_exists=True)
    mark = fingerprint(spec)
    old = study.user_attrs.get(FINGERPRINT)
    if old is None:
        study.set_user_attr(FINGERPRINT, mark)
    elif old != mark:
        raise InputError(f"study {spec.name!r} in {opened.location} was made with other "
                         "settings (game options, bots, target, games, seed or space); give "
                         "another --storage")
    for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study.tell(trial.number, state=TrialState.FAIL)  # left by a killed run
    return study, opened.location


def _rules_of(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(params.items()))


def run_balance(spec: StudySpec, location: str | None = None,
                progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Run (or continue) the study to its trials, then select and confirm its best; returns
    the result (the report's data)."""
    say = progress or (lambda line: None)
    ev, b = spec.evaluation, spec.balance
    study, where = _study(spec, location)
    space = {n: p.distribution() for n, p in spec.space.items()}
    game = registry.get(spec.game)
    backend = ev.backend
    if backend == "loky" and use(game, "kernels").releases_gil(
            [game.parse_bot(t) for t in b.bots], spec.options):
        backend = "threading"  # a kernel that releases the interpreter lock: no fork
    t0 = time.monotonic()
    with WorkerPool(ev.jobs, backend, ev.address, share=True) as pool:
        player = _Player(spec, pool)

        def done() -> list[optuna.trial.FrozenTrial]:
            return study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))

        while len(done()) < spec.optuna.trials:
            trial = study.ask(fixed_distributions=space)
            try:
                value, detail = player.score(dict(trial.params), ev.games, ev.seed)
            except KeyboardInterrupt:
                study.tell(trial, state=TrialState.FAIL)
                raise BalanceInterrupted(where, len(done()), spec.optuna.trials) from None
            except BaseException:
                study.tell(trial, state=TrialState.FAIL)
                raise
            trial.set_user_attr("detail", detail)
            study.tell(trial, value)
            say(f"trial {len(done())}/{spec.optuna.trials}: {_rules_of(trial.params)} -> "
                f"{value:.4f} (best {study.best_value:.4f})")
        try:
            result = _select_and_confirm(spec, study, player, say)
        except KeyboardInterrupt:
            raise BalanceInterrupted(where, len(done()), spec.optuna.trials) from None
    result.update({"storage": where, "seconds": time.monotonic() - t0,
                   "trials": len(study.get_trials(deepcopy=False,
                                                  states=(TrialState.COMPLETE,)))})
    return result


def _select_and_confirm(spec: StudySpec, study: optuna.Study, player: _Player,
                        say: Callable[[str], None]) -> dict[str, Any]:
    ev, b = spec.evaluation, spec.balance
    ranked, seen = [], set()
    for t in sorted(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)),
                    key=lambda t: (t.value, t.number)):
        # rules that played the very same games (a rule these bots never meet, such as the
        # Curses of two Big Money bots) are one candidate: the first of them stands for all
        key = json.dumps(t.user_attrs.get("detail", t.params), sort_keys=True)
        if key not in seen:
            seen.add(key)
            ranked.append(t)
        if len(ranked) >= max(1, ev.reevaluate_top):
            break
    seed = derived_seed(ev.seed, "balance-reevaluate")
    selection = []
    for t in ranked:
        value, detail = player.score(dict(t.params), ev.reevaluate_games, seed)
        selection.append({"trial": t.number, "rules": dict(t.params), "search_value": t.value,
                          "value": value, **detail})
        say(f"selection: {_rules_of(t.params)} -> {value:.4f} on {ev.reevaluate_games:,} "
            "fresh games")
    best = min(selection, key=lambda r: (r["value"], r["trial"]))
    confirm_seed = derived_seed(ev.seed, "balance-confirm")
    games = ev.confirmations
    tuned_value, tuned = player.score(best["rules"], games, confirm_seed)
    printed_value, printed = player.score({}, games, confirm_seed)
    say(f"confirmed on {games:,} further games: tuned {tuned_value:.4f}, printed rules "
        f"{printed_value:.4f}")
    elsewhere = []
    for k, line_up in enumerate(b.elsewhere):
        s = derived_seed(ev.seed, f"balance-elsewhere:{k}")
        elsewhere.append({"bots": list(line_up),
                          "printed": player.match(line_up, {}, games, s),
                          "tuned": player.match(line_up, best["rules"], games, s)})
    return {"study": spec.name, "game": spec.game, "kind": b.kind, "bots": list(b.bots),
            "solo": player.game.player_counts == (1,),
            "target": b.target if b.matrix is None else None,
            "matrix": [list(r) for r in b.matrix] if b.matrix is not None else None,
            "games": ev.games, "seed": ev.seed, "best": best["rules"],
            "selection": selection,
            "confirmation": {"games": games, "seed": confirm_seed,
                             "tuned": {"value": tuned_value, **tuned},
                             "printed": {"value": printed_value, **printed}},
            "elsewhere": elsewhere}

