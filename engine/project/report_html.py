"""The de-identification report as one self-contained HTML page: inline CSS, no scripts,
no images, no links to anything outside it, so it opens and prints offline anywhere (a
browser, or Qt's QTextDocument, which reads the table attributes where it ignores CSS).

Every value is escaped; what goes in is what ``ProjectReport`` holds: ids, labels, counts,
digests, dates.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.context import RunContext
from engine.core.errors import ExportError
from engine.core.files import write_text_atomic
from engine.project.report import DECISION_ACTIONS, ProjectReport, build_report
from engine.store import repositories as repo

if TYPE_CHECKING:
    from engine.project.facade import Project

_CSS = """
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; font-size: 10pt;
       color: #111; }
h1 { font-size: 16pt; margin-bottom: 0.2em; }
h2 { font-size: 12.5pt; margin-top: 1.6em; border-bottom: 1px solid #888; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #999; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #eee; font-size: 8.5pt; }
td.n { text-align: right; }
.mono { font-family: "DejaVu Sans Mono", Consolas, monospace; font-size: 8.5pt; }
.note { color: #444; }
.warn { color: #a00; font-weight: bold; }
@media print { h2 { page-break-after: avoid; }
               tr { page-break-inside: avoid; } }
"""


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ID = re.compile(r"[0-9a-f]{8,24}")


def _when(ts: float | None) -> str:
    if ts is None:
        return "—"
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return f"<td>{'yes' if value else 'no'}</td>"
    if isinstance(value, int | float):
        return f'<td class="n" align="right">{value}</td>'
    if isinstance(value, str) and (_DATE.match(value) or _ID.fullmatch(value)):
        # dates and ids stay on one line
        return f'<td nowrap style="white-space: nowrap">{escape(value)}</td>'
    return f"<td>{escape(str(value))}</td>"


def _table(headers: Sequence[str], rows: Iterable[Sequence[object]], *,
           empty: str = "none") -> str:
    body = "".join("<tr>" + "".join(_cell(v) for v in row) + "</tr>\n" for row in rows)
    if not body:
        return f'<p class="note">{escape(empty)}</p>\n' if empty else ""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    head_row = f"<tr>{head}</tr>\n" if any(headers) else ""
    return (f'<table border="1" cellspacing="0" cellpadding="4" width="100%">\n'
            f"{head_row}{body}</table>\n")


def _mono(value: str) -> str:
    return f'<span class="mono">{escape(value)}</span>'


def _section(title: str, *parts: str) -> str:
    return f"<h2>{escape(title)}</h2>\n" + "".join(parts)


def _p(text: str, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<p{attr}>{escape(text)}</p>\n"


def write_report(project: Project, path: str | Path, ctx: RunContext | None = None) -> Path:
    """Write the report of ``project`` as HTML to ``path`` (temp file + rename: all or
    nothing); the audit log records that a report was written (not where)."""
    html = report_html(build_report(project, ctx))
    try:
        out = write_text_atomic(Path(path), html)
    except OSError as exc:  # the rename (the write itself says so in its own words)
        raise ExportError(f"{path}: cannot write the report "
                          f"({exc.strerror or 'input/output error'})") from exc
    with project.db.write() as s:
        repo.audit(s, "report.written", count=len(html.encode("utf-8")))
    return out


def report_html(r: ProjectReport) -> str:
    """The report as a complete HTML document (a str; written as UTF-8)."""
    parts = [
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n",
        "<title>ClearNote de-identification report</title>\n",
        f"<style>{_CSS}</style></head><body>\n",
        "<h1>De-identification report</h1>\n",
        _p(f"Project {r.project_id} · generated {_when(r.generated_at)} by ClearNote "
           f"{r.clearnote_version} · project file "
           f"{'encrypted at rest' if r.encrypted else 'NOT encrypted'}", "note"),
        _p("This report holds counts, labels, document ids and file digests only: no text "
           "from a document, no file names, no paths. Document ids are keyed digests of the "
           "files; the key that maps them back to sources stays inside the project.",
           "note"),
        _policy(r), _detectors(r), _documents(r), _labels(r), _decisions(r), _cire(r),
        _undecided(r), _exports(r), _learned(r), _audit(r),
        "</body></html>\n",
    ]
    return "".join(parts)


def _policy(r: ProjectReport) -> str:
    rules = "; ".join(r.policy_rules) or "no exceptions"
    return _section(
        "1. Policy: what counts as PHI",
        _table(("", ""), (
            ("policy", r.policy), ("definition", r.policy_description),
            ("labels treated as PHI", ", ".join(r.phi_labels)), ("exceptions", rules),
            ("replacement", {"surrogate": "realistic surrogates (consistent per patient, "
                             "dates shifted per patient)", "tag": "label tags ([PATIENT])",
                             "redact": "blacked out (█)"}.get(r.mode, r.mode)))),
        _table(("detection option", "setting"), r.options))


def _grid(headers: Sequence[str], rows: str) -> str:
    """A table of rows already rendered (``<tr>``...)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    return (f'<table border="1" cellspacing="0" cellpadding="4" width="100%">\n'
            f"<tr>{head}</tr>\n{rows}</table>\n")


def _digest_row(name: str, sha256: str, span: int) -> str:
    """A digest on a row of its own, under the row it belongs to (64 characters do not fit
    a column of a printed page)."""
    return f'<tr><td colspan="{span}">{escape(name)}: {_mono(sha256)}</td></tr>\n'


def _detectors(r: ProjectReport) -> str:
    rows = []
    for m in r.models:
        head = (m.kind, m.name, m.version or "—")
        if not m.files:
            rows.append("<tr>" + "".join(map(_cell, (*head, "—", m.note or "—"))) + "</tr>\n")
        for f in m.files:
            state = f.state + (f"; {m.note}" if m.note else "")
            rows.append("<tr>" + "".join(map(_cell, (*head, f.name, state))) + "</tr>\n"
                        + _digest_row(f"sha256 of {f.name}", f.sha256, 5))
    models = _grid(("kind", "model", "version", "file", "state"), "".join(rows)) if rows \
        else _p("No model-based detector (rules and dictionaries only).", "note")
    return _section(
        "2. Detectors and models",
        _table(("detector@version", "detection runs", "documents (latest run)"),
               r.detectors, empty="No detection has run yet."),
        models)


def _documents(r: ProjectReport) -> str:
    return _section("3. Documents", _table(
        ("status", "documents"), [*sorted(r.documents_by_status.items()),
                                  ("all", r.documents)]))


def _labels(r: ProjectReport) -> str:
    headers = ("label", "detected", "added", "accepted", "rejected", "undecided",
               "superseded", "replaced")
    rows = [(c.label, c.detected, c.added, c.accepted, c.rejected, c.undecided,
             c.superseded, c.replaced) for c in (*r.labels, r.totals())]
    if r.box_redactions is None:
        boxes = _p("Box redactions: not available in this project's version.", "note")
    else:
        boxes = _p(f"Box redactions (rectangles drawn on pages, burned into redacted PDFs): "
                   f"{r.box_redactions} active, on {r.box_documents} document(s).")
    return _section("4. Spans by label", _table(headers, rows if r.labels else [],
                                                 empty="No spans."), boxes,
                    _p("Detected: proposed by a detector; added: marked by a reviewer. "
                       "Accepted, rejected and undecided count both. Superseded: lost an "
                       "overlap to another span (kept for the audit, not replaced). "
                       "Replaced: what an export replaces, the accepted and the undecided "
                       "spans.", "note"))


def _decisions(r: ProjectReport) -> str:
    headers = ("day (UTC)", *(name for _, name in DECISION_ACTIONS))
    rows = [(d.day, *(d.counts.get(a, 0) for a, _ in DECISION_ACTIONS)) for d in r.decisions]
    return _section("5. Reviewer decisions over time",
                    _table(headers, rows, empty="No reviewer decision is recorded."),
                    _p("From the audit log: one entry per span a reviewer decided (in the "
                       "window, the CLI or an imported review file). Reopened: back to "
                       "undecided (an undo); removed: a reviewer's added span taken back.",
                       "note"))


def _cire(r: ProjectReport) -> str:
    high = r.cire_by_severity.get("high", 0)
    lead = _p(f"{high} HIGH flag(s) stored.", "warn") if high else ""
    return _section(
        "6. Clinical information retention (CIRE) flags",
        lead,
        _table(("severity", "flags"), sorted(r.cire_by_severity.items()),
               empty="No CIRE flag is stored."),
        _table(("reason", "flags"), sorted(r.cire_by_kind.items()), empty=""),
        _p(f"Documents with at least one stored flag: {r.cire_documents}. CIRE runs when a "
           "document's diff is shown and before an export; its flags are stored then.",
           "note"))


def _undecided(r: ProjectReport) -> str:
    total = sum(n for _, n, _ in r.undecided)
    return _section(
        "7. Still open",
        _p(f"{total} undecided candidate span(s) in "
           f"{sum(1 for _, n, _ in r.undecided if n)} document(s)."),
        _table(("document id", "undecided spans", "HIGH CIRE flags"), r.undecided,
               empty="Nothing is open: every span is decided and no HIGH flag is stored."))


def _exports(r: ProjectReport) -> str:
    rows = "".join(
        "<tr>" + "".join(map(_cell, (e.document_id, e.format, _when(e.exported_at),
                                     _verification(e.state)))) + "</tr>\n"
        + _digest_row("output sha256", e.sha256, 4) for e in r.exports)
    table = _grid(("document id", "format", "exported", "verification"), rows) if rows \
        else _p("Nothing has been exported.", "note")
    return _section(
        "8. Exported documents", table,
        _p("Every output is checked before it is kept: no original string of an accepted "
           "or undecided span may be extractable from it (a failed check writes nothing "
           "and records nothing). The verification column compares the file at its export "
           "location with the sha256 recorded then.", "note"))


def _verification(state: str) -> str:
    return {"unchanged": "verified at export; file unchanged",
            "missing": "verified at export; file no longer at its export location",
            "changed": "verified at export; FILE CHANGED since"}.get(state, state)


def _learned(r: ProjectReport) -> str:
    rows = [(v.version, v.note, _when(v.created_at), v.active,
             ", ".join(f"{k} {n}" for k, n in sorted(v.counts.items())) or "—")
            for v in r.profile_versions]
    lists = ", ".join(f"{k} {n}" for k, n in r.list_entries.items()) or "none"
    return _section(
        "9. What the project learned",
        _table(("profile version", "made by", "created", "active", "entries and inputs"),
               rows, empty="No profile: the project has learned nothing yet."),
        _p(f"Imported list entries by kind: {lists}."),
        _p("The profile's entries (names, places, clinical vocabulary) stay inside the "
           "project; only their counts are shown.", "note"))


def _audit(r: ProjectReport) -> str:
    a = r.audit
    return _section(
        "10. Audit log",
        _p(f"{a.entries} entries from {_when(a.first)} to {_when(a.last)}, "
           f"by {a.accounts} account(s). The log is append-only (the project refuses "
           "to change or delete an entry) and holds ids, labels, offsets and counts, never "
           "text."),
        _table(("action", "entries", "first", "last"),
               [(act, n, _when(f), _when(la)) for act, n, f, la in a.by_action]))
