"""A throw-away PostgreSQL server in a temporary folder (tests, benchmarks, trying it out).

The server binaries come from the ``pgserver`` wheel (the ``dev`` extra), or from a system
PostgreSQL on PATH. PostgreSQL refuses to run as root, so under root the binaries are copied
to a folder the ``nobody`` user can read and the server runs as ``nobody``. The server
listens on a free loopback port only, with password authentication, so tests can also try a
wrong password.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

USER, PASSWORD = "tabletune", "s3cret"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def find_binaries() -> Path | None:
    """The folder holding ``initdb``/``pg_ctl``/``postgres``, or None if none is installed."""
    import importlib.util
    spec = importlib.util.find_spec("pgserver")  # found, not imported (it sets up dirs)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        if (Path(folder) / "pginstall" / "bin" / "pg_ctl").exists():
            return Path(folder) / "pginstall" / "bin"
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    for candidate in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (candidate / "pg_ctl").exists():
            return candidate
    return None


def _world_readable(path: Path) -> bool:
    """Whether every folder up to ``path`` lets other users through."""
    return all(p.stat().st_mode & 0o005 == 0o005 for p in [path, *path.parents])


def _copy_install(bin_dir: Path, dest: Path) -> Path:
    """Copy a pgserver install (and the wheel's bundled libraries beside it) to ``dest``."""
    install = bin_dir.parent  # .../site-packages/pgserver/pginstall
    shutil.copytree(install, dest / "pgserver" / "pginstall", symlinks=True)
    libs = install.parent.parent / "pgserver.libs"  # found by the binaries' relative RPATH
    if libs.is_dir():
        shutil.copytree(libs, dest / "pgserver.libs", symlinks=True)
    return dest / "pgserver" / "pginstall" / "bin"


class PostgresServer:
    """One PostgreSQL server: :meth:`start`, :meth:`stop`, :meth:`restart`, :meth:`url`."""

    def __init__(self, bin_dir: Path, parent: str | Path | None = None) -> None:
        """``parent``: the folder to make the server's folder in (default: the temp dir)."""
        self.root = Path(tempfile.mkdtemp(prefix="tabletune-pg-", dir=parent))
        self.port = free_port()
        self.user: str | None = None
        if os.geteuid() == 0:  # postgres will not run as root: run it as nobody
            self.user = "nobody"
            if not _world_readable(bin_dir):
                bin_dir = _copy_install(bin_dir, self.root / "install")
            entry = pwd.getpwnam(self.user)
            for path in [self.root, *self.root.rglob("*")]:
                os.chown(path, entry.pw_uid, entry.pw_gid, follow_symlinks=False)
            self.root.chmod(0o755)
        self.bin = bin_dir
        self.data = self.root / "data"
        self.log = self.root / "server.log"

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.bin / args[0]), *args[1:]], user=self.user,
                              capture_output=True, text=True, timeout=timeout, check=True,
                              cwd=self.root)

    def init(self) -> None:
        pwfile = self.root / "pw"
        pwfile.write_text(PASSWORD + "\n")
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(pwfile, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", USER, f"--pwfile={pwfile}",
                  "--auth=scram-sha-256", "--encoding=UTF8", "--no-sync", "--wal-segsize=1")
        # a throw-away server: no durability, and little write-ahead log on disk (small
        # segments, few kept), so that starting, filling and deleting it stays cheap
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"\nlisten_addresses = '127.0.0.1'\nport = {self.port}\n"
                       f"unix_socket_directories = '{self.root}'\nfsync = off\n"
                       "synchronous_commit = off\nfull_page_writes = off\n"
                       "wal_level = minimal\nmax_wal_senders = 0\nmin_wal_size = 2MB\n"
                       "max_wal_size = 32MB\nmax_connections = 200\n"
                       # a client frozen inside a transaction cannot hold its locks for ever
                       "idle_in_transaction_session_timeout = 30000\n")

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                  "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-m", "fast", "-w",
                  "restart")

    def url(self, database: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A fresh database for one test; returns its URL."""
        import psycopg
        with psycopg.connect(host="127.0.0.1", port=self.port, user=USER, password=PASSWORD,
                             dbname="postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def cleanup(self) -> None:
        try:
            self.stop("immediate")
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            pass
        shutil.rmtree(self.root, ignore_errors=True)
