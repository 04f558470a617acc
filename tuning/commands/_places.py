"""Files, folders and addresses a command will use, checked before any work starts.

A folder given where a file goes (or the other way round), a file standing where a folder
must be made, a folder that cannot be written or an address that cannot be listened on
would otherwise fail after the games were played, with a traceback. Each check here is one
line (InputError) naming the flag and what is wrong with the path.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

from games.errors import InputError


def _blocked(path: Path, flag: str) -> None:
    """Refuse a path that cannot be created: an existing part of it that is a file, or a
    nearest existing folder that cannot be written."""
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise InputError(f"{flag} {path}: {parent} is a file, not a folder")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise InputError(f"{flag} {path}: folder {parent} is not writable")
            return


def input_file(path: str | Path, flag: str) -> Path:
    """A file to read: it must exist and be a file."""
    path = Path(path)
    if path.is_dir():
        raise InputError(f"{flag} {path} is a folder, not a file")
    if not path.exists():
        raise InputError(f"{flag} {path} does not exist")
    if not path.is_file():
        raise InputError(f"{flag} {path} is not a regular file")
    return path


def output_file(path: str | Path, flag: str) -> Path:
    """A file to write (created with its folders): not a folder, and creatable."""
    path = Path(path)
    if path.is_dir():
        raise InputError(f"{flag} {path} is a folder, not a file")
    if path.exists() and not os.access(path, os.W_OK):
        raise InputError(f"{flag} {path} is not writable")
    _blocked(path, flag)
    return path


def output_folder(path: str | Path, flag: str) -> Path:
    """A folder to write into (created with its parents): not a file, and writable."""
    path = Path(path)
    if path.exists():
        if not path.is_dir():
            raise InputError(f"{flag} {path} is a file, not a folder")
        if not os.access(path, os.W_OK | os.X_OK):
            raise InputError(f"{flag} {path}: folder is not writable")
        return path
    _blocked(path, flag)
    return path


def journal_file(location: str | None, flag: str = "--storage") -> None:
    """A storage given as a journal file path (a URL is left to its driver): not a folder,
    and in a place where a file can be made."""
    if location and "://" not in location:
        output_file(location, flag)


def listen_address(host: str, port: int) -> None:
    """Refuse a host that names no address of this machine, or a port already taken, by
    binding it once (and letting it go) before the server starts."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise InputError(f"--host {host}: not an address to listen on ({reason})") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise InputError(f"cannot listen on {host}:{port}: "
                             f"{exc.strerror or exc}") from None
