"""Running studies on more than one machine: a local PostgreSQL for tests and benchmarks
(:mod:`tuning.cluster._local_postgres`) and ``compose.yml``, a ready PostgreSQL + workers +
dashboard stack.

Its module is private: the tests and benchmarks start their own server with it.
"""
