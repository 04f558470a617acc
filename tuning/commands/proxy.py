"""`tabletune storage-proxy`: Optuna's gRPC storage proxy in front of a study database."""

from __future__ import annotations

import typer

from tuning import _limits as limits
from tuning.commands._apps import app, err_console


@app.command("storage-proxy")
def storage_proxy_command(
    storage: str = typer.Option(..., "--storage",
                                help="Database URL to serve (postgresql://USER:PW@HOST/DB)."),
    host: str = typer.Option("127.0.0.1", "--host",
                             help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(13000, "--port", help="Port to listen on."),
    threads: int = typer.Option(16, "--threads", help="Calls served at once."),
) -> None:
    """Serve a study database to many workers over gRPC (Ctrl-C to stop).

    Workers then run with --storage grpc://HOST:PORT and open no database connection of
    their own; the proxy does the SQL work once, with Optuna's trial cache.
    """
    from tuning.study import serve

    limits.PORT.check(port, "--port")
    limits.THREADS.check(threads, "--threads")
    serve(storage, host, port, threads,
          ready=lambda line: err_console.print(line, highlight=False, soft_wrap=True))
