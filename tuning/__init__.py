"""tabletune's optimisation layer: study specs, evaluation, Optuna/DEAP runners, reports, CLI."""
