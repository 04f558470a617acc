"""Balance studies: a game's rules (its options marked ``rule``) tuned towards a target, the
first seat's score or a matrix of scores between bots (`tabletune balance`).

Public (everything else is private; each name loads its module on first use):
:func:`run_balance` and :class:`BalanceInterrupted` (``_runner``), :func:`write_report`
(``_report``) and :func:`parse_balance`, the ``[balance]`` table (``_spec``).
"""

from typing import TYPE_CHECKING

from games.lazy_exports import lazy_exports

if TYPE_CHECKING:  # what the names are, for type checkers; loaded on first use
    from tuning.balance._report import write_report
    from tuning.balance._runner import BalanceInterrupted, run_balance
    from tuning.balance._spec import parse_balance

#: each public name and the private module that defines it
_EXPORTS = {
    "write_report": "_report",
    "BalanceInterrupted": "_runner",
    "run_balance": "_runner",
    "parse_balance": "_spec",
}
__all__ = [
    "BalanceInterrupted", "parse_balance", "run_balance", "write_report",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
