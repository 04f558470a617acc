"""tabletune's optimisation layer: study specs, evaluation, Optuna/DEAP runners, reports, CLI.

The public surface is the ``tabletune`` command (:mod:`tuning.cli`) and what each
subpackage's ``__init__`` names (:mod:`tuning.study`, :mod:`tuning.evaluation`,
:mod:`tuning.evolution`, :mod:`tuning.reporting`, :mod:`tuning.ladder`,
:mod:`tuning.balance`, :mod:`tuning.train`, :mod:`tuning.reproduce`). The modules of this
top package (specs, overrides, ``best:`` references, the board optimiser) are private by
name and serve the commands; nothing below the CLI imports :mod:`tuning.commands`.
"""
