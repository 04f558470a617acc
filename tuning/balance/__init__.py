"""Balance studies: a game's rules (its options marked ``rule``) tuned towards a target, the
first seat's score or a matrix of scores between bots (`tabletune balance`). Public:
:func:`tuning.balance.runner.run_balance` and the ``[balance]`` table
(:mod:`tuning.balance.spec`)."""
