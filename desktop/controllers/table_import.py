"""Tables in the desktop, the worker side: the first rows of dropped tables for the role
dialog (``preview_dropped``) and of a table document for the review area
(``load_table``). Both run in Tasks: a table may be a million rows, and only its first
rows are read here, never on the GUI thread."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import engine.api as api
from desktop.records import TableData
from engine.core.domain import Document
from engine.core.errors import ClearNoteError
from engine.core.messages import problem_in_words

if TYPE_CHECKING:
    from engine.api import Project, TablePreview

DIALOG_ROWS = 20  # rows read for the role dialog's sample values
VIEW_ROWS = 300  # rows the review area shows of a table document


@dataclass(frozen=True, slots=True)
class DroppedTable:
    """A dropped table with its inferred roles and first rows, or why it cannot be read."""

    path: Path
    preview: TablePreview | None
    problem: str = ""


def preview_dropped(paths: Sequence[Path]) -> list[DroppedTable]:
    out = []
    for path in paths:
        try:
            out.append(DroppedTable(path, api.preview_table(path, rows=DIALOG_ROWS)))
        except (ClearNoteError, OSError) as exc:  # named in words, the file by the caller
            out.append(DroppedTable(path, None, problem_in_words(exc)))
    return out


def load_table(project: Project, document: Document) -> TableData | None:
    """A table document's first rows with the roles its export uses; None for a document
    that is not a table."""
    if not api.is_table_media(document.media_type):
        return None
    try:
        return TableData(api.preview_project_table(project, document.id, rows=VIEW_ROWS))
    except (ClearNoteError, OSError) as exc:
        return TableData(None, problem_in_words(exc))


__all__ = ["DIALOG_ROWS", "VIEW_ROWS", "DroppedTable", "load_table", "preview_dropped"]
