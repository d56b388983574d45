"""What ClearNote learned, as rows: one table of names and places now found, one of
clinical words now ignored (``LearnedEntriesModel``), built in a worker (``learned_view``).

The rows hold the entries' text: PHI from the reviewer's own project, shown like the
document view shows it, never logged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from engine.api import EntrySource, PhiEntry, Profile, VocabEntry

Index = QModelIndex | QPersistentModelIndex

_SOURCES = {EntrySource.REVIEW: "your review", EntrySource.LIST: "an imported list",
            EntrySource.CORPUS: "the project's notes"}


@dataclass(frozen=True)
class LearnedRow:
    entry: PhiEntry | VocabEntry
    matches: int  # places in the unreviewed documents the entry matches

    @property
    def kind(self) -> str:
        entry = self.entry
        if isinstance(entry, PhiEntry):
            label = entry.label.value.lower()
            return entry.kind.value if label == entry.kind.value else \
                f"{entry.kind.value} ({label})"
        where = " beside a title or initial" if entry.context == "name" else ""
        return f"not a {entry.label.value.lower()}{where}"

    @property
    def source(self) -> str:
        return _SOURCES.get(self.entry.source, self.entry.source.value)


@dataclass(frozen=True)
class LearnedView:
    """The active profile as the panel shows it."""

    version: int | None
    versions: int  # versions kept: undo is possible when a profile is active
    found: tuple[LearnedRow, ...] = ()  # names and places now found
    ignored: tuple[LearnedRow, ...] = ()  # clinical words now ignored

    @property
    def can_undo(self) -> bool:
        return self.version is not None


def learned_view(profile: Profile | None, version: int | None, versions: int,
                 matches: Mapping[PhiEntry | VocabEntry, int]) -> LearnedView:
    """Rows by kind, most matches first (the entries that change the most lead)."""
    if profile is None:
        return LearnedView(version, versions)

    def rows(entries: Sequence[PhiEntry | VocabEntry]) -> tuple[LearnedRow, ...]:
        made = [LearnedRow(e, matches.get(e, 0)) for e in entries]
        return tuple(sorted(made, key=lambda r: (-r.matches, r.entry.text, r.kind)))

    return LearnedView(version, versions, rows(profile.phi), rows(profile.vocabulary))


class LearnedEntriesModel(QAbstractTableModel):
    COLUMNS = ("Text", "Kind", "Learned from", "Matches")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[LearnedRow] = []

    def set_rows(self, rows: Sequence[LearnedRow]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def rows(self) -> list[LearnedRow]:
        return list(self._rows)

    def row_at(self, row: int) -> LearnedRow:
        return self._rows[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole
                and 0 <= section < len(self.COLUMNS)):
            return self.COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (row.entry.text, row.kind, row.source, row.matches)[col] \
                if 0 <= col < len(self.COLUMNS) else None
        if role == Qt.ItemDataRole.ToolTipRole and col == 3:
            return "Places in the documents nobody reviewed that this entry matches"
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 3:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
