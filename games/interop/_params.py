"""The OpenSpiel bots' names and parameter dataclasses (with their tuning ranges), apart
from the code that plays them so that the registry's descriptions can list them cheaply."""

from __future__ import annotations

from dataclasses import dataclass

from games.capabilities import use
from games.core import tunable
from games.registry import BotInfo, Game

MCTS = "openspiel-mcts"


@dataclass(frozen=True)
class MCTSParams:
    """OpenSpiel's MCTS (``open_spiel.python.algorithms.mcts.MCTSBot``) over a fresh
    determinization of the position each move (what the seat cannot see, dealt at random)."""

    simulations: int = tunable(100, 2, 100_000, integer=True, log=True,
                               doc="MCTS simulations per move (the first one only expands "
                                   "the root)")
    rollouts: int = tunable(1, 1, 100, integer=True, doc="rollouts per leaf evaluation")
    uct_c: float = tunable(2.0, 0.01, 10.0, log=True, doc="UCT exploration constant")
    evaluator: str = tunable("random", choices=("random", "heuristic"),
                             doc="leaf rollouts: random moves, or the game's rollout bot "
                                 "(its rollout_bot) in every seat")


#: the OpenSpiel bots a game offers once it opts in
OPENSPIEL_BOTS: dict[str, BotInfo] = {
    MCTS: BotInfo(MCTS, "OpenSpiel's MCTS (UCT, random or heuristic rollouts) over a sampled "
                  "determinization each move", MCTSParams, ("simulations",),
                  example=f"{MCTS}:simulations=2"),
}


def game_rollout_bot(game: Game) -> str:
    """The bot the ``heuristic`` evaluator plays in every seat ('' where the game has none:
    the ``state_players`` capability's ``rollout_bot``)."""
    return use(game, "state_players").rollout_bot
