"""`tabletune page FOLDER...`: write a report folder's index.html from its README.md."""

from __future__ import annotations

from pathlib import Path

import typer

from games.errors import InputError
from tuning.commands import _places as places
from tuning.commands._apps import app, console, print_json


@app.command("page")
def page_command(
    folders: list[Path] = typer.Argument(None, help="Report folders holding a README.md."),
    all_folders: bool = typer.Option(False, "--all",
                                     help="Every folder under reports/ whose page is its "
                                          "README rendered (not the studies' folders)."),
    json_out: bool = typer.Option(False, "--json", help="Print the pages written as JSON."),
) -> None:
    """Write index.html from README.md for reproduction and hand-written reports.

    The page is the README rendered, its PNGs embedded, every file of the folder linked.
    A study's page is made by `tabletune report STUDY --publish` instead.
    """
    from tuning.reporting import readme_folders, write_readme_page

    if all_folders and folders:
        raise InputError("give folders or --all, not both")
    if not all_folders and not folders:
        raise InputError("name a report folder (e.g. reports/interop) or give --all")
    chosen = readme_folders() if all_folders else list(folders)
    written = []
    for folder in chosen:
        places.output_folder(folder, "FOLDER")
        try:
            written.append(write_readme_page(folder))
        except ValueError as exc:
            raise InputError(str(exc)) from None
    if json_out:
        print_json({"written": [str(p) for p in written]})
        return
    for path in written:
        console.print(f"wrote {path}", highlight=False, soft_wrap=True)
