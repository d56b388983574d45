"""CSV summary of a batch: one row per document (ids, counts, outcome; no PHI)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from engine.core.errors import ExportError
from engine.core.files import write_atomic


def write_csv_summary(rows: Sequence[Mapping[str, object]], path: str | Path, *,
                      columns: Sequence[str] | None = None) -> Path:
    path = Path(path)
    if columns is None:
        columns = list(dict.fromkeys(key for row in rows for key in row))
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(columns), extrasaction="raise",
                            lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(v) for k, v in row.items()})

    def verify(tmp: Path) -> None:
        with tmp.open(encoding="utf-8", newline="") as fh:
            count = sum(1 for _ in csv.DictReader(fh))
        if count != len(rows):
            raise ExportError(f"{path.name}: wrote {count} rows, expected {len(rows)}")

    return write_atomic(path, buf.getvalue().encode("utf-8"), verify)


def _cell(value: object) -> object:
    # Cells starting with = + - @ run as formulas in spreadsheet apps: neutralise them.
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@") and not _numeric(value):
        return "'" + value
    return value


def _numeric(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True
