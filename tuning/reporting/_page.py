"""Report pages: self-contained HTML, Markdown tables and PNG figures.

Figures are saved as PNG files next to the report and embedded in ``index.html`` as base64
data, so the page opens with no network and references no http(s) resource. Shared by every
report (Optuna studies, DEAP evolutions).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

_CSS = """
body { font-family: system-ui, sans-serif; max-width: 960px; margin: 2em auto; padding: 0 1em;
       color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: right; }
th { background: #f3f3f3; }
td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; white-space: pre-wrap;
      overflow-wrap: anywhere; }
"""


@dataclass
class Section:
    """One part of a report: a heading with paragraphs, tables, figures and code blocks."""

    title: str
    blocks: list[str] = field(default_factory=list)

    def text(self, paragraph: str) -> Section:
        self.blocks.append(f"<p>{html.escape(paragraph)}</p>")
        return self

    def code(self, text: str) -> Section:
        self.blocks.append(f"<pre>{html.escape(text)}</pre>")
        return self

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> Section:
        self.blocks.append(html_table(headers, rows))
        return self

    def collapsed_table(self, summary: str, headers: Sequence[str],
                        rows: Sequence[Sequence[Any]]) -> Section:
        """A long table folded under a <details> line, so it does not fill the page."""
        self.blocks.append(f"<details><summary>{html.escape(summary)}</summary>"
                           f"{html_table(headers, rows)}</details>")
        return self

    def figure(self, png: bytes, name: str, caption: str = "") -> Section:
        self.blocks.append(embed_png(png, name, caption))
        return self


def fmt(value: Any, digits: int = 4) -> str:
    """Short text for a table cell: floats rounded, None as a dash."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}g}" if abs(value) >= 1e4 else f"{value:.{digits}f}"
    return str(value)


def html_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(fmt(c))}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A GitHub-flavoured Markdown table."""
    def cell(c: Any) -> str:
        return fmt(c).replace("|", "\\|")
    lines = ["| " + " | ".join(cell(h) for h in headers) + " |",
             "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def figure_png(fig: Any, dpi: int = 110) -> bytes:
    """Render a matplotlib figure to PNG bytes and close it."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def save_png(png: bytes, out_dir: Path, name: str) -> Path:
    """Write PNG bytes to ``out_dir/name`` (creating the folder)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / name
    path.write_bytes(png)
    return path


def embed_png(png: bytes, name: str, caption: str = "") -> str:
    """An <img> with the PNG inlined as base64; ``name`` is the PNG file saved beside it."""
    data = base64.b64encode(png).decode("ascii")
    cap = html.escape(caption or name)
    return (f'<figure><img alt="{html.escape(name)}" data-file="{html.escape(name)}" '
            f'src="data:image/png;base64,{data}"><figcaption>{cap} '
            f"(<code>{html.escape(name)}</code>)</figcaption></figure>")


def html_page(title: str, sections: Sequence[Section], intro: str = "") -> str:
    """A complete self-contained HTML document (inline CSS, inline images, no scripts)."""
    parts = [f"<h2>{html.escape(s.title)}</h2>" + "".join(s.blocks) for s in sections]
    lead = f"<p>{html.escape(intro)}</p>" if intro else ""
    return html_document(title, f"<h1>{html.escape(title)}</h1>{lead}{''.join(parts)}")


def html_document(title: str, body: str, head: str = "") -> str:
    """The one page shell of every report: ``body`` (HTML) under the title and the inline
    CSS; ``head`` adds elements to the head (a generator mark)."""
    return (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">{head}"
            f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"
            f"{body}</body></html>\n")


def write_report(out_dir: Path, title: str, sections: Sequence[Section],
                 figures: dict[str, bytes], readme: str, intro: str = "") -> Path:
    """Write ``index.html``, ``README.md`` and every PNG figure into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, png in figures.items():
        save_png(png, out_dir, name)
    (out_dir / "index.html").write_text(html_page(title, sections, intro), encoding="utf-8")
    (out_dir / "README.md").write_text(readme, encoding="utf-8")
    return out_dir / "index.html"


# --------------------------------------------------------------------------- Optuna studies
