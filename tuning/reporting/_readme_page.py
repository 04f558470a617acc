"""A report folder's ``index.html`` rendered from its ``README.md``.

Studies and evolutions build their pages from their data (:mod:`tuning.reporting._study`,
:mod:`tuning.reporting._evolution`). Reproductions and hand-written reports keep their
figures in ``README.md`` (written by ``tabletune reproduce``, or by hand) beside the JSON
and PNG files it quotes; their page is that README rendered (CommonMark with tables,
raw HTML escaped), its PNGs embedded as base64 data so the page opens with no network, and
every file of the folder linked, so the page and the README can never state different
figures. ``tabletune page`` writes these pages; ``tabletune reproduce`` writes one after
each README.
"""

from __future__ import annotations

import base64
import html
import subprocess
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from tuning.reporting._page import html_document

#: the marker a README-rendered page carries: what ``tabletune page --all`` may overwrite
GENERATOR = "tabletune page"
README = "README.md"
INDEX = "index.html"
#: a summary of a study or an evolution: its page is built from the data, not the README
STUDY_SUMMARY = "run.json"


def _markdown() -> Any:
    """CommonMark with GitHub tables and strikethrough; raw HTML is shown, not interpreted."""
    return MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])


def _local(folder: Path, src: str) -> Path | None:
    """The file in ``folder`` a relative link names, or None (a URL, an anchor, absent)."""
    if not src or "://" in src or src.startswith(("#", "/", "data:", "mailto:")):
        return None
    path = (folder / src.split("#", 1)[0]).resolve()
    try:
        path.relative_to(folder.resolve())
    except ValueError:
        return None
    return path if path.is_file() else None


def _png_data(path: Path) -> str:
    """A PNG file as a data URL, so the page needs no file beside it to show the figure."""
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def render_body(folder: Path, text: str) -> tuple[str, set[str]]:
    """The README's HTML with its local PNG images inlined; also the names it inlined."""
    md = _markdown()
    tokens = md.parse(text)
    shown: set[str] = set()
    for token in tokens:
        for child in token.children or ():
            if child.type != "image":
                continue
            src = str(child.attrGet("src") or "")
            path = _local(folder, src)
            if path is not None and path.suffix.lower() == ".png":
                child.attrSet("src", _png_data(path))
                child.attrSet("data-file", src)
                shown.add(path.name)
    return md.renderer.render(tokens, md.options, {}), shown


def _title(text: str, folder: Path) -> str:
    """The README's first level-1 heading as plain text (the folder's name if none)."""
    tokens = _markdown().parse(text)
    for i, token in enumerate(tokens[:-1]):
        if token.type == "heading_open" and token.tag == "h1":
            return "".join(c.content for c in tokens[i + 1].children or ()) or folder.name
    return folder.name


def _stored_section(folder: Path) -> str:
    """The ``play --json`` records kept in the folder, each with its games, seed, score and
    interval (:mod:`tuning.reporting._stored`), as a study's page shows them."""
    from tuning.reporting._page import html_table
    from tuning.reporting._stored import HEADERS, stored_evaluations, stored_rows

    evals = stored_evaluations(folder)
    if not evals:
        return ""
    return ("<h2>Stored evaluations</h2><p>The tabletune play --json records kept in this "
            "folder, as they are stored: the first bot's score against the others, with its "
            "games and seed.</p>" + html_table(HEADERS, stored_rows(evals)))


def _ignored(folder: Path, names: list[str]) -> set[str]:
    """The names git ignores in ``folder`` (work files such as resumable runs): the page lists
    what a clone has, so it reads the same on every machine. Empty outside a git checkout."""
    if not names:
        return set()
    try:
        done = subprocess.run(["git", "check-ignore", "--stdin"], cwd=folder,
                              input="\n".join(names), capture_output=True, text=True,
                              timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return set()
    return {line.strip().rstrip("/") for line in done.stdout.splitlines() if line.strip()}


def _files_section(folder: Path, shown: set[str]) -> str:
    """Links to every file and subfolder a clone has (a subfolder's page where it has or gets
    one), and the PNG figures the README does not show inline."""
    items, figures = [], []
    entries = sorted(folder.iterdir(), key=lambda p: p.name)
    ignored = _ignored(folder, [p.name for p in entries])
    for path in entries:
        name = path.name
        if name.startswith(".") or name == INDEX or name in ignored:
            continue
        if path.is_dir():
            paged = (path / INDEX).is_file() or (path / README).is_file()
            target = f"{name}/{INDEX}" if paged else f"{name}/"
            items.append(f'<li><a href="{html.escape(target)}">{html.escape(name)}/</a></li>')
            continue
        items.append(f'<li><a href="{html.escape(name)}">{html.escape(name)}</a></li>')
        if path.suffix.lower() == ".png" and name not in shown:
            figures.append(
                f'<figure><img alt="{html.escape(name)}" data-file="{html.escape(name)}" '
                f'src="{_png_data(path)}"><figcaption><code>{html.escape(name)}</code>'
                "</figcaption></figure>")
    out = _stored_section(folder)
    out += "<h2>Files in this folder</h2><ul>" + "".join(items) + "</ul>"
    if figures:
        out += "<h2>Figures not shown above</h2>" + "".join(figures)
    return out


def _shown_path(folder: Path) -> str:
    """``folder`` as the footer's command names it: relative to the project where it lies
    inside it (the same page from any working directory), else as given."""
    project = Path(__file__).resolve().parents[2]
    try:
        return Path(folder).resolve().relative_to(project).as_posix()
    except ValueError:
        return str(folder)


def render_page(folder: Path) -> str:
    """The complete page of ``folder`` from its README.md (self-contained, no scripts)."""
    folder = Path(folder)
    text = (folder / README).read_text(encoding="utf-8")
    body, shown = render_body(folder, text)
    title = _title(text, folder)
    where = html.escape(_shown_path(folder))
    footer = (f"<hr><p><small>This page is {README} rendered, with the folder's files linked "
              f"(<code>tabletune page {where}</code>); edit {README} and run that command "
              "again, never this page.</small></p>")
    return html_document(title, f"{body}{_files_section(folder, shown)}{footer}",
                         head=f'<meta name="generator" content="{GENERATOR}">')


def is_readme_page(path: Path) -> bool:
    """True when ``path`` is a page this module wrote (it may be overwritten)."""
    try:
        head = Path(path).read_text(encoding="utf-8")[:400]
    except OSError:
        return False
    return f'<meta name="generator" content="{GENERATOR}">' in head


def builds_own_page(folder: Path) -> bool:
    """True for a study's or an evolution's folder: ``tabletune report`` builds its page
    from the study's data, so the README is not rendered over it."""
    folder = Path(folder)
    page = folder / INDEX
    return (folder / STUDY_SUMMARY).is_file() or (page.is_file() and not is_readme_page(page))


def write_readme_page(folder: Path) -> Path:
    """Render ``folder/README.md`` into ``folder/index.html``; returns the page's path.

    Refused (ValueError) for a folder whose page ``tabletune report`` builds."""
    folder = Path(folder)
    if builds_own_page(folder):
        raise ValueError(f"{folder} is a study's report: its page is made by tabletune "
                         "report STUDY --publish")
    if not (folder / README).is_file():
        raise ValueError(f"{folder} has no {README} to render")
    page = folder / INDEX
    page.write_text(render_page(folder), encoding="utf-8")
    return page


def readme_folders(root: Path = Path("reports")) -> list[Path]:
    """Every folder under ``root`` (nested ones too) with a README.md whose page is
    rendered from it: all but the studies' and evolutions' folders."""
    return sorted(p.parent for p in Path(root).rglob(README)
                  if p.parent != Path(root) and not builds_own_page(p.parent))
