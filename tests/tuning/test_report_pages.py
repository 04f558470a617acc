"""Every report folder has a page, and the README's headline figures are on the pages it cites.

The rule for a figure, so that a page that states another figure fails:

- A *citation* is a path ``reports/FOLDER/...`` in a paragraph, list item or table cell of
  the project README (code blocks are commands, not claims, and are skipped).
- Its *claim* is the clause that holds it, up to the citation: the text from the previous
  clause boundary (the start of the paragraph or cell, a ``;`` or a sentence end outside
  parentheses, or the previous citation) to the citation. Parenthetical asides that close
  before the citation (a thesis's value, the selection value beside a confirmed one) are
  left out; the parentheses around the citation itself are kept.
- Its *figures* are the percentages with decimals (``58.8%``), both ends of bracketed
  intervals (``[58.1, 59.5]``, ``[+0.56, +1.31]``) and fractions written with three or more
  decimals (``0.8452``). Counts, seeds, times and ratios are not headline figures.
- A figure is *on the page* when a number in the page's text (tags and embedded images
  left out) equals it at the README's precision, read as written or, for a fraction on the
  page, times 100 (``0.5879`` shows ``58.8%``): |page - figure| <= half a unit of the
  figure's last decimal.

A README figure that no page shows, or a page that shows another value (stale after a
change of the README or of the data), fails with the folder, the figure and the claim.

Each report folder's own README.md is held to its page the same way, every figure of the
whole README (a study's page is built from its data; its README's own ``## `` sections are
rendered onto it by ``report --publish``), and a page rendered from its README must equal a
fresh rendering (``tabletune page --all`` after editing a README).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tuning.reporting._readme_page import (
    INDEX,
    README,
    is_readme_page,
    readme_folders,
    render_page,
)

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "reports"

CITATION = re.compile(r"reports/([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.*-]+)*)")
PERCENT = re.compile(r"(?<![\w.])([+-]?\d+\.\d+)\s?%")
INTERVAL = re.compile(r"\[\s*([+-]?\d+(?:\.\d+)?)\s*,\s*([+-]?\d+(?:\.\d+)?)\s*\]")
FRACTION = re.compile(r"(?<![\w.+-])(0\.\d{3,})(?![\d%])")
#: a number on a page; a sign only where no word precedes it (``52.8-57.2`` is a range)
NUMBER = re.compile(r"(?:(?<![\w.])[+-])?\d+(?:,\d{3})*(?:\.\d+)?")
#: what may stand between two citations of one claim
JOINED = re.compile(r"[^\w(]*(?:and|or)?[^\w(]*")


def report_folders() -> list[Path]:
    """Every folder directly under reports/."""
    return sorted(p for p in REPORTS.iterdir() if p.is_dir())


def page_text(folder: Path) -> str:
    """The visible text of ``folder/index.html``: no tags, styles or embedded data."""
    raw = (folder / INDEX).read_text(encoding="utf-8")
    raw = re.sub(r"<style>.*?</style>", " ", raw, flags=re.S)
    raw = re.sub(r'src="data:[^"]*"', "", raw)
    return html.unescape(re.sub(r"<[^>]+>", " ", raw))


def page_numbers(text: str) -> list[float]:
    """Every number in a page's text (thousands separators allowed)."""
    return [float(m.group().replace(",", "")) for m in NUMBER.finditer(text)]


def shows(figure: str, numbers: list[float]) -> bool:
    """True when one of ``numbers`` is ``figure`` at its precision (as written, or a
    fraction times 100)."""
    value = float(figure)
    decimals = len(figure.split(".")[1]) if "." in figure else 0
    tolerance = 0.5 * 10 ** -decimals + 1e-9
    return any(abs(n - value) <= tolerance or abs(100 * n - value) <= tolerance
               for n in numbers)


def text_blocks(markdown: str) -> list[str]:
    """The inline text of every paragraph, list item and table cell (no code blocks)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table")
    return [t.content for t in md.parse(markdown) if t.type == "inline"]


def _top_level_boundaries(text: str) -> list[int]:
    """Indices just past each clause end outside parentheses: ``;`` or a sentence end."""
    depth, ends = 0, []
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif depth == 0 and ch == ";":
            ends.append(i + 1)
        elif depth == 0 and ch == "." and text[i + 1:i + 3].startswith((" ", "\n")) \
                and text[i + 2:i + 3].isupper():
            ends.append(i + 1)
    return ends


def _drop_closed_asides(text: str) -> str:
    """``text`` without the parenthetical groups that close inside it (the one still open at
    its end, around the citation, is kept), nor the tail of one that opened before it (the
    previous citation's)."""
    out, stack = list(text), []
    for i, ch in enumerate(text):
        if ch == "(":
            stack.append(i)
        elif ch == ")":
            start = stack.pop() if stack else 0
            for k in range(start, i + 1):
                out[k] = " "
    return "".join(out)


def cited_page(path: str) -> Path:
    """The folder whose page a citation ``reports/PATH`` names: the deepest folder on the
    path with a page (or a README that gets one), else the top folder."""
    parts = path.split("/")
    folder = REPORTS / parts[0]
    for part in parts[1:]:
        deeper = folder / part
        if not deeper.is_dir() or not ((deeper / INDEX).is_file() or (deeper / README).is_file()):
            break
        folder = deeper
    return folder


def claims(markdown: str) -> list[tuple[tuple[str, ...], str]]:
    """(cited folders, claim text) for every citation of report folders in ``markdown``;
    citations one after another (``reports/a/``, ``reports/b/``) make one claim."""
    found: list[tuple[tuple[str, ...], str]] = []
    for block in text_blocks(markdown):
        ends = _top_level_boundaries(block)
        last = 0
        for m in CITATION.finditer(block):
            if found and last and JOINED.fullmatch(block[last:m.start()]):
                folders, claim = found[-1]
                found[-1] = ((*folders, m.group(1)), claim)
            else:
                start = max([last, *(e for e in ends if e <= m.start())])
                found.append(((m.group(1),), _drop_closed_asides(block[start:m.start()])))
            last = m.end()
    return found


def figures(claim: str) -> list[str]:
    """The headline figures of a claim, as written."""
    out = [m.group(1) for m in PERCENT.finditer(claim)]
    for m in INTERVAL.finditer(claim):
        if "." in m.group(1) or "." in m.group(2):
            out += [m.group(1), m.group(2)]
    out += [m.group(1) for m in FRACTION.finditer(claim)]
    return out


@pytest.mark.parametrize("folder", report_folders(), ids=lambda p: p.name)
def test_every_report_folder_has_a_page(folder: Path) -> None:
    assert (folder / INDEX).is_file(), (
        f"{folder.relative_to(ROOT)} has no {INDEX}: tabletune page {folder.relative_to(ROOT)}"
        " (or tabletune report STUDY --publish for a study)")


def test_readme_rendered_pages_are_current() -> None:
    """A page rendered from its README states what the README states now."""
    stale = []
    for folder in readme_folders(REPORTS):
        page = folder / INDEX
        if not page.is_file() or not is_readme_page(page):
            stale.append(f"{folder.relative_to(ROOT)} (no rendered page)")
            continue
        if page.read_text(encoding="utf-8") != render_page(folder):
            stale.append(str(folder.relative_to(ROOT)))
    assert not stale, ("pages older than their README.md (run tabletune page --all): "
                       + ", ".join(stale))


@pytest.mark.parametrize("folder", sorted(p.parent for p in REPORTS.rglob(README)
                                          if (p.parent / INDEX).is_file()),
                         ids=lambda p: str(p.relative_to(REPORTS)))
def test_each_page_shows_its_readme_figures(folder: Path) -> None:
    """Every figure of a folder's README.md (the same kinds, the same rule) is on its page:
    the page and the README of one report state the same values."""
    numbers = page_numbers(page_text(folder))
    missing = [f for f in figures((folder / README).read_text(encoding="utf-8"))
               if not shows(f, numbers)]
    assert not missing, f"{folder.relative_to(ROOT)}/{INDEX} lacks {missing}"


def test_readme_headline_figures_are_on_the_pages_they_cite() -> None:
    text = (ROOT / README).read_text(encoding="utf-8")
    found = claims(text)
    assert len(found) > 20  # the README cites its reports throughout
    missing, checked = [], 0
    for folders, claim in found:
        pages = [cited_page(f) for f in folders if (REPORTS / f.split("/")[0]).is_dir()]
        if not pages:
            continue
        numbers = [n for page in pages for n in page_numbers(page_text(page))]
        for figure in figures(claim):
            checked += 1
            if not shows(figure, numbers):
                where = " or ".join(str((p / INDEX).relative_to(ROOT)) for p in pages)
                missing.append(f"{figure} not on {where}: ...{' '.join(claim.split())[-160:]}")
    assert checked > 30
    assert not missing, "\n".join(missing)


def test_the_rule_fails_on_a_stale_figure() -> None:
    """The rule catches a page that states another value than the README's claim."""
    claim = claims("The best scores 58.8% [58.1, 59.5] against Smithy Big Money (its "
                   "confirmation; selection value 60.0%) (`reports/x/`).")
    assert claim == [(("x",), claim[0][1])]
    assert figures(claim[0][1]) == ["58.8", "58.1", "59.5"]
    assert all(shows(f, [0.5879, 0.5810, 0.5950]) for f in figures(claim[0][1]))
    assert not shows("58.8", [0.5999, 0.6066])
    assert not shows("0.8452", [0.8414, 0.8464])
    # clauses: a figure after a ';' belongs to the next citation, not this one
    two = claims("A wins 31.11% (`reports/a/`); B wins 29.93% [29.03, 30.83] (`reports/b/`)")
    assert [figures(c) for _, c in two] == [["31.11"], ["29.93", "29.03", "30.83"]]
    # the rest of the previous citation's parentheses is its own, not the next claim's
    tail = claims("A wins 18.45% (`reports/a/`; seed 13.1%), and 29.93% (`reports/b/`)")
    assert [figures(c) for _, c in tail] == [["18.45"], ["29.93"]]
    assert cited_page("dominion-baseset/attack/") == REPORTS / "dominion-baseset" / "attack"
    assert cited_page("dominion-heuristic/eval-*.json") == REPORTS / "dominion-heuristic"
    # citations side by side make one claim, held by either page
    both = claims("They reach 99.96% and 99.97%: `reports/a/`, `reports/b/`.")
    assert both == [(("a", "b"), both[0][1])] and figures(both[0][1]) == ["99.96", "99.97"]
    assert page_numbers("52.8-57.2 and -0.08") == [52.8, 57.2, -0.08]


def test_page_renders_a_readme_with_its_figures_and_files(tmp_path: Path) -> None:
    """The page is the README rendered: its PNG inlined, raw HTML shown as text, every file
    linked; a study's folder is refused."""
    import shutil

    from tuning.reporting._readme_page import write_readme_page

    folder = tmp_path / "demo"
    folder.mkdir()
    shutil.copy(REPORTS / "deckbuilder" / "dp_cost.png", folder / "cost.png")
    (folder / "data.json").write_text("{}")
    (folder / README).write_text("# Demo `x`\n\nWins 58.8% [58.1, 59.5] <b>bold</b>.\n\n"
                                 "![cost](cost.png)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    page = write_readme_page(folder).read_text(encoding="utf-8")
    assert is_readme_page(folder / INDEX) and "<title>Demo x</title>" in page
    assert 'src="data:image/png;base64,' in page and 'data-file="cost.png"' in page
    assert "&lt;b&gt;bold&lt;/b&gt;" in page and "<td>2</td>" in page
    assert '<a href="data.json">data.json</a>' in page and "Figures not shown" not in page
    assert "http://" not in page.replace("http://www.w3.org", "")
    (folder / "run.json").write_text("{}")
    with pytest.raises(ValueError, match="tabletune report STUDY --publish"):
        write_readme_page(folder)


def test_publish_states_a_confirmed_best_on_the_study_page(tmp_path: Path) -> None:
    """`report --publish` from a published summary puts the confirmed figure, with its
    selection value, at the top of the page's Result section (once)."""
    import json
    import shutil

    from tuning._spec import load_spec
    from tuning.reporting._published import confirm_published

    folder = tmp_path / "thegame-penalty-d2"
    shutil.copytree(REPORTS / "thegame-penalty-d2", folder)
    old = (folder / INDEX).read_text(encoding="utf-8")
    old = old.replace(old[old.index("<p>Result: "):old.index("<p>Search:")], "") \
        if "<p>Result: " in old else old
    (folder / INDEX).write_text(old, encoding="utf-8")
    run = json.loads((folder / "run.json").read_text())
    spec = load_spec(ROOT / "studies" / "thegame-penalty-d2.toml")
    assert confirm_published(spec, folder) == run  # nothing replayed, nothing changed
    page = (folder / INDEX).read_text(encoding="utf-8")
    assert "<h2>Result</h2><p>Result: 0.2993 (confirmed on 10,000 further" in page
    assert "selection value 0.3083" in page and page.count("<p>Result: ") == 1
    assert "<h2>Reading the result</h2>" in page  # the README's own section, rendered
    confirm_published(spec, folder)
    assert (folder / INDEX).read_text(encoding="utf-8") == page


def test_an_exact_evolution_says_what_generation_0_already_held() -> None:
    """A figure generation 0 already reached (a seed genome's) is not credited to the
    evolution; a noisy fitness gets no such note (generation 0 played other games)."""
    from tuning.reporting._evolution import start_note

    rows = [{"best": 278.11716063}, {"best": 278.11716063}]
    held = start_note(rows, 278.1171606329368, 3, exact=True)
    assert "already reached this fitness, 278.1172" in held and "3 seed genomes" in held
    assert "did not find it" in held
    raised = start_note([{"best": 128.7448}], 128.74786, 3, exact=True)
    assert "started at 128.7448" in raised and "(+0.0031)" in raised
    assert start_note(rows, 0.9, 3, exact=False) == ""


def test_page_lists_only_what_a_clone_has(tmp_path: Path) -> None:
    """Work files git ignores (a resumable run's folder) are not linked: the page reads the same
    on the machine that made the runs and on a fresh clone."""
    import shutil
    import subprocess

    from tuning.reporting._readme_page import write_readme_page

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("runs/\n")
    folder = tmp_path / "demo"
    (folder / "runs").mkdir(parents=True)
    (folder / "runs" / "state.json").write_text("{}")
    (folder / "data.json").write_text("{}")
    (folder / README).write_text("# Demo\n")
    page = write_readme_page(folder).read_text(encoding="utf-8")
    assert '<a href="data.json">data.json</a>' in page
    assert "runs/" not in page
    shutil.rmtree(folder / "runs")
    assert write_readme_page(folder).read_text(encoding="utf-8") == page
