"""Running studies on more than one machine: a local PostgreSQL for tests and benchmarks
(:mod:`tuning.cluster.local_postgres`) and ``compose.yml``, a ready PostgreSQL + workers +
dashboard stack."""
