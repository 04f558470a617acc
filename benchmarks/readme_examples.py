"""Run every command example of README.md and time it against the time the README states.

    python benchmarks/readme_examples.py [--list] [--only REGEX] [--lines A-B] [--json]
        [--scratch DIR] [--max-seconds S] [--skip-longer S] [--readme README.md]

Examples are the ``tabletune ...`` and ``python benchmarks/...`` lines of README.md's code
blocks (indented blocks and fenced blocks; a line ending in ``\\`` continues on the next).
The time the README states for an example is read from its trailing comment (``# about a
minute on one core``, ``# 2 minutes``, ``(40 s)``, ``(~2 h on one core)``); an example
without one is expected to take a few seconds.

Left out, each with its reason: placeholder lines (``tabletune run STUDY``, elided options
``...``), and examples that need an outside server or address (a PostgreSQL URL, ``grpc://``,
a Dask or Ray address, ``"$STORAGE"``, ``dashboard``, ``storage-proxy``). Examples whose
stated time is longer than ``--skip-longer`` (default 15 minutes) are listed with that time
and not run.

Each example runs with ``bash -c`` in a scratch folder (``--scratch``, default a new
temporary folder, kept and printed so later ``--only`` batches can share it) that holds
copies of ``reports/``, ``studies/`` and ``benchmarks/``, so ``runs/`` is the scratch
folder's and nothing committed is written: ``reproduce`` and ``report --publish`` are also
given ``--out`` inside the scratch folder. Examples run in README order in the one scratch
folder, so one that reads what an earlier one made (``@runs/...journal``,
``learned:runs/...``, ``--resume``, ``report STUDY`` after ``run STUDY``) finds it; when it
is missing the example is reported as a dependency failure and not run. The timeout is twice
the stated time, else 120 s, capped by ``--max-seconds``; on timeout the example's process
group gets SIGTERM, then SIGKILL 30 s later (a match stops at the end of a block of games,
which can take a while at The Game's depth 2). Each row records the 1-minute load average
at its start (the machine may be shared). Run ``python -m games.warm`` first, so the numba
kernels are compiled and the times are those of warm runs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TIMEOUT = 120.0
GRACE = 30.0  # a match stops at the end of its current block of games
COPIED = ("reports", "studies", "benchmarks")

EXTERNAL = [
    (re.compile(r"postgresql://"), "needs a PostgreSQL server"),
    (re.compile(r"grpc://"), "needs a storage proxy"),
    (re.compile(r"--address\b"), "needs a Dask or Ray cluster"),
    (re.compile(r"\$STORAGE|\$\{STORAGE\}"), "needs a database URL ($STORAGE)"),
    (re.compile(r"^tabletune dashboard\b"), "starts a web server"),
    (re.compile(r"^tabletune storage-proxy\b"), "starts a server"),
]

UNITS = {"h": 3600, "hour": 3600, "hours": 3600, "min": 60, "mins": 60, "minute": 60,
         "minutes": 60, "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1}
TIME = re.compile(r"(\d+(?:\.\d+)?)(?:\s*[-–]\s*(\d+(?:\.\d+)?))?\s*"
                  r"(hours?|h|minutes?|mins?|min|seconds?|secs?|sec|s)\b")
WORDS = re.compile(r"\b(?:a|one) (minute|hour)\b")


@dataclass
class Example:
    """One README example: its line, command, trailing comment and stated seconds."""

    line: int
    command: str
    comment: str = ""
    stated: str = ""
    stated_s: float | None = None
    skip: str = ""


@dataclass
class Result:
    """What running one example gave."""

    line: int
    command: str
    stated: str
    stated_s: float | None
    timeout_s: float | None
    seconds: float | None
    outcome: str
    status: int | None
    load: float | None
    note: str = ""
    log: str = ""
    tail: list[str] = field(default_factory=list)


def split_comment(text: str) -> tuple[str, str]:
    """The command and its trailing shell comment (a ``#`` after a blank, outside quotes)."""
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1].isspace()):
            return text[:i].rstrip(), text[i + 1:].strip()
    return text.rstrip(), ""


def stated_time(comment: str) -> tuple[str, float | None]:
    """The time a comment states (the upper end of a range), as text and seconds."""
    match = TIME.search(comment)
    if match:
        low, high, unit = match.groups()
        value = float(high or low) * UNITS[unit]
        return match.group(0), value
    match = WORDS.search(comment)
    if match:
        return match.group(0), float(UNITS[match.group(1)])
    return "", None


def placeholder(command: str) -> str:
    """Why a line is a placeholder rather than a runnable example ('' if it is runnable)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return "placeholder (not a shell command line)"
    for word in words[1:]:
        if "..." in word:
            return f"placeholder ({word})"
        if word.startswith("[") or word == "|":
            return f"placeholder ({word})"
        if re.fullmatch(r"[A-Z][A-Z0-9_]*(?:,[A-Z][A-Z0-9_]*)*", word):
            return f"placeholder ({word})"
    return ""


def extract(readme: Path) -> list[Example]:
    """Every ``tabletune``/``python benchmarks/`` line of the README's code blocks, in order."""
    lines = readme.read_text(encoding="utf-8").splitlines()
    examples: list[Example] = []
    fenced = False
    i = 0
    while i < len(lines):
        raw = lines[i]
        start = i
        i += 1
        if raw.lstrip().startswith("```"):
            fenced = not fenced
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        text = raw.strip()
        if not (fenced or indent >= 4):
            continue
        if not (text.startswith("tabletune ") or text == "tabletune"
                or text.startswith("python benchmarks/")):
            continue
        while text.endswith("\\") and i < len(lines):
            text = text[:-1].rstrip() + " " + lines[i].strip()
            i += 1
        command, comment = split_comment(text)
        command = " ".join(command.split()) if "'" not in command and '"' not in command \
            else command
        stated, seconds = stated_time(comment)
        example = Example(start + 1, command, comment, stated, seconds)
        example.skip = placeholder(command)
        if not example.skip:
            for pattern, why in EXTERNAL:
                if pattern.search(command):
                    example.skip = why
                    break
        examples.append(example)
    return examples


def prepare(scratch: Path) -> None:
    """Copy what the examples read (reports, studies, benchmarks) into the scratch folder."""
    scratch.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        if not (scratch / name).exists():
            shutil.copytree(ROOT / name, scratch / name, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__"))
    (scratch / "runs").mkdir(exist_ok=True)
    (scratch / "logs").mkdir(exist_ok=True)


def redirect(command: str, scratch: Path, line: int) -> tuple[str, str]:
    """The command with ``--out`` inside the scratch folder where it would write reports/."""
    words = command.split()
    if len(words) >= 3 and words[1] == "reproduce" and "--out" not in words \
            and "--from-json" not in words:
        out = scratch / "out" / f"line{line}-{words[2]}"
        return f"{command} --out {shlex.quote(str(out))}", "--out in scratch"
    if len(words) >= 3 and words[1] == "report" and "--publish" in words \
            and "--out" not in words:
        out = scratch / "out" / f"line{line}-{words[2]}"
        return f"{command} --out {shlex.quote(str(out))}", "--out in scratch"
    return command, ""


def needs(command: str, scratch: Path) -> str:
    """What an example reads that an earlier example must have made, if it is missing."""
    for match in re.finditer(r"(?:@|learned:)(runs/[^\s,;'\"]+)", command):
        if not (scratch / match.group(1)).exists():
            return f"{match.group(1)} (made by an earlier example) is missing"
    words = command.split()
    if len(words) >= 3 and words[1] in ("evolve", "train") and "--resume" in words:
        study = words[2]
        folder = scratch / "runs" / study
        if not folder.exists():
            return f"runs/{study}/ (made by an earlier `{words[1]} {study}`) is missing"
    if len(words) >= 3 and words[1] == "report" and "--storage" not in words \
            and "--publish" not in words and "-o" not in words and "--option" not in words:
        study = words[2]
        if not ((scratch / "runs" / f"{study}.journal").exists()
                or (scratch / "runs" / study).exists()):
            return f"runs/{study}.journal or runs/{study}/ (made by an earlier run) is missing"
    return ""


def load() -> float | None:
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def run_one(example: Example, scratch: Path, max_seconds: float | None,
            env: dict[str, str]) -> Result:
    timeout = 2 * example.stated_s if example.stated_s else DEFAULT_TIMEOUT
    if max_seconds is not None:
        timeout = min(timeout, max_seconds)
    result = Result(example.line, example.command, example.stated, example.stated_s, timeout,
                    None, "", None, load())
    missing = needs(example.command, scratch)
    if missing:
        result.outcome = "dependency missing"
        result.note = missing
        return result
    command, result.note = redirect(example.command, scratch, example.line)
    log = scratch / "logs" / f"line{example.line:04d}.log"
    result.log = str(log)
    start = time.monotonic()
    with open(log, "w", encoding="utf-8") as out:
        out.write(f"$ {command}\n")
        out.flush()
        proc = subprocess.Popen(["bash", "-c", command], cwd=scratch, env=env,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            result.status = proc.wait(timeout=timeout)
            result.outcome = "finished" if result.status == 0 else "failed"
        except subprocess.TimeoutExpired:
            result.outcome = "timed out"
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=GRACE)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            result.status = proc.returncode
    result.seconds = round(time.monotonic() - start, 1)
    text = log.read_text(encoding="utf-8", errors="replace").splitlines()
    result.tail = [t for t in text[-6:] if t.strip()]
    return result


def fmt_seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.0f}" if value >= 10 else f"{value:.1f}"


def table(rows: list[Result]) -> str:
    head = ("line", "command", "stated", "timeout", "seconds", "outcome", "exit", "load")
    body = []
    for r in rows:
        command = r.command if len(r.command) <= 90 else r.command[:87] + "..."
        outcome = r.outcome + (f" ({r.note})" if r.note else "")
        body.append((str(r.line), command, r.stated or "-", fmt_seconds(r.timeout_s),
                     fmt_seconds(r.seconds), outcome,
                     "-" if r.status is None else str(r.status),
                     "-" if r.load is None else f"{r.load:.2f}"))
    widths = [max(len(x[i]) for x in [head, *body]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(head, widths, strict=True)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
              for row in body]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md")
    parser.add_argument("--list", action="store_true", help="print the examples only")
    parser.add_argument("--only", help="run the examples whose command matches this regex")
    parser.add_argument("--lines", help="A-B: only the examples on README lines A to B")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--scratch", type=Path,
                        help="scratch folder to run in (kept; default: a new temporary one)")
    parser.add_argument("--max-seconds", type=float, help="cap on every example's timeout")
    parser.add_argument("--skip-longer", type=float, default=900.0,
                        help="leave examples whose stated time is longer (seconds)")
    args = parser.parse_args(argv)

    examples = extract(args.readme)
    if args.only:
        pattern = re.compile(args.only)
        examples = [e for e in examples if pattern.search(e.command)]
    if args.lines:
        low, _, high = args.lines.partition("-")
        examples = [e for e in examples
                    if int(low or 0) <= e.line <= int(high or 10**9)]

    if args.list:
        if args.json:
            print(json.dumps([asdict(e) for e in examples], indent=2))
            return 0
        for e in examples:
            stated = e.stated or "-"
            extra = f"   [skip: {e.skip}]" if e.skip else ""
            print(f"{e.line:5d}  {stated:>12}  {e.command}{extra}")
        return 0

    scratch = args.scratch or Path(tempfile.mkdtemp(prefix="readme-examples-"))
    scratch = scratch.resolve()
    prepare(scratch)
    print(f"scratch folder: {scratch}", file=sys.stderr)
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env.setdefault("PYTHONUNBUFFERED", "1")

    rows: list[Result] = []
    for e in examples:
        if e.skip:
            rows.append(Result(e.line, e.command, e.stated, e.stated_s, None, None,
                               "skipped", None, None, e.skip))
        elif e.stated_s is not None and e.stated_s > args.skip_longer:
            rows.append(Result(e.line, e.command, e.stated, e.stated_s, None, None,
                               "skipped", None, None,
                               f"stated {e.stated}, longer than --skip-longer"))
        else:
            print(f"line {e.line}: {e.command}", file=sys.stderr, flush=True)
            rows.append(run_one(e, scratch, args.max_seconds, env))
            r = rows[-1]
            print(f"  -> {r.outcome} in {fmt_seconds(r.seconds)} s (exit {r.status}, "
                  f"load {r.load})", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=2))
    else:
        print(table(rows))
    bad = [r for r in rows if r.outcome in ("failed", "timed out", "dependency missing")]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
