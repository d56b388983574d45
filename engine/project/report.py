"""The de-identification report for an IRB or a data-protection officer: what a project did,
in counts and ids only (issue 27 item 9).

``build_report`` reads the project (policy, detectors and models with their sha256, spans by
label and status, reviewer decisions per day, CIRE flags, what is undecided, exports with
their outputs' sha256 and whether those files still hold the recorded bytes, what the
project learned, the audit log by action) into a frozen ``ProjectReport``;
``engine.project.report_html`` renders it as one self-contained HTML page and writes it
atomically (``write_report``). Nothing in it is text from a document, a file name or a
path: documents are named by their ids, models by their manifest names, accounts are
counted, not named.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import distinct, func, select, text
from sqlalchemy.orm import Session

from engine import __version__
from engine.core.context import RunContext
from engine.core.domain import Source, SpanStatus
from engine.core.files import file_sha256
from engine.core.policies import Policy, get_policy
from engine.project.report_models import ModelEntry, model_entries
from engine.project.settings import ProjectSettings
from engine.store import profiles
from engine.store import repositories as repo
from engine.store.models import AuditRow, CireFlagRow, ExportRow, RunRow, SpanRow

if TYPE_CHECKING:
    from engine.project.facade import Project

__all__ = ["AuditSummary", "DayDecisions", "ExportedFile", "LabelCounts", "ModelEntry",
           "ProjectReport", "build_report"]

# Audit actions that are a reviewer's decision, in the order the report's columns show them.
DECISION_ACTIONS: tuple[tuple[str, str], ...] = (
    ("span.accepted", "accepted"), ("span.rejected", "rejected"), ("span.added", "added"),
    ("span.candidate", "reopened"), ("span.removed", "removed"),
    ("box.drawn", "boxes drawn"), ("box.removed", "boxes removed"),
    ("document.reviewed", "documents reviewed"))


@dataclass(frozen=True)
class LabelCounts:
    """Spans of one label. ``detected``: proposed by a detector (any status); ``added``: drawn
    by a reviewer; the status columns count both."""

    label: str
    detected: int = 0
    added: int = 0
    accepted: int = 0
    rejected: int = 0
    undecided: int = 0
    superseded: int = 0

    @property
    def replaced(self) -> int:
        """Spans an export replaces: accepted and still-undecided ones."""
        return self.accepted + self.undecided


@dataclass(frozen=True)
class DayDecisions:
    day: str  # YYYY-MM-DD, UTC
    counts: dict[str, int] = field(default_factory=dict)  # audit action -> entries


@dataclass(frozen=True)
class ExportedFile:
    document_id: str
    format: str
    sha256: str
    exported_at: float
    state: str  # "unchanged", "missing" (moved or deleted), "changed" (bytes differ)


@dataclass(frozen=True)
class ProfileVersionInfo:
    version: int
    note: str
    content_version: str
    created_at: float
    active: bool
    counts: dict[str, int]


@dataclass(frozen=True)
class AuditSummary:
    entries: int
    first: float | None
    last: float | None
    accounts: int  # distinct login names (counted: a name is not shown)
    by_action: tuple[tuple[str, int, float, float], ...]  # action, entries, first, last


@dataclass(frozen=True)
class ProjectReport:
    generated_at: float
    clearnote_version: str
    project_id: str
    encrypted: bool
    policy: str
    policy_description: str
    phi_labels: tuple[str, ...]
    policy_rules: tuple[str, ...]  # age threshold, years kept, weekdays kept
    mode: str
    options: tuple[tuple[str, str], ...]  # the detection options, in words
    detectors: tuple[tuple[str, int, int], ...]  # id@version, runs, documents (latest run)
    models: tuple[ModelEntry, ...]
    documents: int
    documents_by_status: dict[str, int]
    labels: tuple[LabelCounts, ...]
    box_redactions: int | None  # active boxes; None: this project has no box table
    box_documents: int
    decisions: tuple[DayDecisions, ...]
    cire_by_severity: dict[str, int]
    cire_by_kind: dict[str, int]
    cire_documents: int  # documents with stored CIRE results (flags)
    undecided: tuple[tuple[str, int, int], ...]  # document id, undecided spans, HIGH flags
    exports: tuple[ExportedFile, ...]
    profile_versions: tuple[ProfileVersionInfo, ...]
    list_entries: dict[str, int]  # imported list entries by kind
    audit: AuditSummary

    def totals(self) -> LabelCounts:
        """Every label together (the figures ``Project.statistics`` gives)."""
        total = Counter[str]()
        for c in self.labels:
            for name in ("detected", "added", "accepted", "rejected", "undecided",
                         "superseded"):
                total[name] += getattr(c, name)
        return LabelCounts("all labels", **total)


def build_report(project: Project, ctx: RunContext | None = None) -> ProjectReport:
    """Everything the report shows, read from ``project`` (ids and counts only)."""
    ctx = ctx or RunContext()
    settings = project.settings
    policy = get_policy(settings.policy)
    stats = project.statistics()
    db = project.db
    with db.read() as s:
        labels = _label_counts(s)
        detectors = _detectors(s)
        boxes, box_docs = _box_redactions(s)
        decisions = _decisions_by_day(s)
        cire_sev, cire_kind, cire_docs = _cire(s)
        undecided = _undecided(s)
        export_rows = s.execute(select(ExportRow.document_id, ExportRow.format,
                                       ExportRow.sha256, ExportRow.created_at, ExportRow.path)
                                .order_by(ExportRow.id)).all()
        versions = tuple(ProfileVersionInfo(v.version, v.note, v.content_version,
                                            v.created_at, v.active, dict(v.counts))
                         for v in profiles.versions(s))
        entries = Counter(kind.value for kind, _, _ in profiles.list_entries(s))
        audit = _audit(s)
        project_id = str(repo.get_settings(s).get("project_id", project.id))
    ctx.report("report", 1, 3, "project read")
    exports = tuple(ExportedFile(doc_id, fmt, sha, at, _file_state(Path(p), sha, ctx))
                    for doc_id, fmt, sha, at, p in export_rows)
    ctx.report("report", 2, 3, "exported files checked")
    models = model_entries(settings, tuple(d for d, _, _ in detectors), ctx)
    ctx.report("report", 3, 3, "models checked")
    return ProjectReport(
        generated_at=time.time(), clearnote_version=__version__, project_id=project_id,
        encrypted=project.encrypted, policy=policy.name,
        policy_description=policy.description,
        phi_labels=tuple(sorted(label.value for label in policy.phi_labels)),
        policy_rules=_policy_rules(policy), mode=settings.mode.value,
        options=_options(settings), detectors=detectors, models=models,
        documents=stats.documents, documents_by_status=dict(stats.by_status), labels=labels,
        box_redactions=boxes, box_documents=box_docs, decisions=decisions,
        cire_by_severity=cire_sev, cire_by_kind=cire_kind, cire_documents=cire_docs,
        undecided=undecided, exports=exports, profile_versions=versions,
        list_entries=dict(sorted(entries.items())), audit=audit)


# ----------------------------------------------------------------------------- reads


def _label_counts(s: Session) -> tuple[LabelCounts, ...]:
    manual = (SpanRow.source == Source.MANUAL.value).label("manual")
    rows = s.execute(select(SpanRow.label, SpanRow.status, manual, func.count())
                     .group_by(SpanRow.label, SpanRow.status, manual))
    by_label: dict[str, Counter[str]] = {}
    column = {SpanStatus.ACCEPTED.value: "accepted", SpanStatus.REJECTED.value: "rejected",
              SpanStatus.CANDIDATE.value: "undecided",
              SpanStatus.SUPERSEDED.value: "superseded"}
    for label, status, is_manual, n in rows:
        c = by_label.setdefault(label, Counter())
        c["added" if is_manual else "detected"] += n
        if status in column:
            c[column[status]] += n
    return tuple(LabelCounts(label, **by_label[label]) for label in sorted(by_label))


def _detectors(s: Session) -> tuple[tuple[str, int, int], ...]:
    """Every detector a run used: runs, and documents whose latest run used it."""
    import json

    runs: Counter[str] = Counter()
    latest: dict[str, list[str]] = {}
    for doc_id, names in s.execute(select(RunRow.document_id, RunRow.detectors)
                                   .order_by(RunRow.id)):
        used = [str(n) for n in json.loads(names or "[]")]
        runs.update(used)
        latest[doc_id] = used
    documents = Counter(n for used in latest.values() for n in used)
    return tuple((name, runs[name], documents[name]) for name in sorted(runs))


def _box_redactions(s: Session) -> tuple[int | None, int]:
    """Active box redactions and the documents that have them; None where this project's
    schema has no box redactions (they came with a later version)."""
    exists = s.execute(text(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'box_redactions'")).first()
    if exists is None:
        return None, 0
    n, docs = s.execute(text(
        "SELECT count(*), count(DISTINCT document_id) FROM box_redactions WHERE active"
    )).one()
    return int(n or 0), int(docs or 0)


def _decisions_by_day(s: Session) -> tuple[DayDecisions, ...]:
    day = func.date(AuditRow.at, "unixepoch")
    rows = s.execute(select(day, AuditRow.action, func.count())
                     .where(AuditRow.action.in_([a for a, _ in DECISION_ACTIONS]))
                     .group_by(day, AuditRow.action).order_by(day))
    days: dict[str, dict[str, int]] = {}
    for d, action, n in rows:
        days.setdefault(str(d), {})[action] = int(n)
    return tuple(DayDecisions(d, c) for d, c in days.items())


def _cire(s: Session) -> tuple[dict[str, int], dict[str, int], int]:
    severity: dict[str, int] = dict(s.execute(select(func.lower(CireFlagRow.severity), func.count())
                              .group_by(func.lower(CireFlagRow.severity))).all())
    kind: dict[str, int] = dict(s.execute(select(CireFlagRow.kind, func.count())
                          .group_by(CireFlagRow.kind)).all())
    docs = s.scalar(select(func.count(distinct(CireFlagRow.document_id))))
    return ({str(k): int(v) for k, v in sorted(severity.items())},
            {str(k): int(v) for k, v in sorted(kind.items())}, int(docs or 0))


def _undecided(s: Session) -> tuple[tuple[str, int, int], ...]:
    """Documents with undecided candidates or HIGH CIRE flags, by id."""
    open_spans = dict(s.execute(select(SpanRow.document_id, func.count())
                                .where(SpanRow.status == SpanStatus.CANDIDATE.value)
                                .group_by(SpanRow.document_id)).all())
    high = dict(s.execute(select(CireFlagRow.document_id, func.count())
                          .where(func.lower(CireFlagRow.severity) == "high")
                          .group_by(CireFlagRow.document_id)).all())
    ids = sorted(set(open_spans) | set(high))
    return tuple((d, int(open_spans.get(d, 0)), int(high.get(d, 0))) for d in ids)


def _audit(s: Session) -> AuditSummary:
    n, first, last, accounts = s.execute(select(
        func.count(), func.min(AuditRow.at), func.max(AuditRow.at),
        func.count(distinct(AuditRow.who)))).one()
    actions = s.execute(select(AuditRow.action, func.count(), func.min(AuditRow.at),
                               func.max(AuditRow.at))
                        .group_by(AuditRow.action).order_by(AuditRow.action)).all()
    return AuditSummary(int(n or 0), first, last, int(accounts or 0),
                        tuple((str(a), int(c), float(f), float(la))
                              for a, c, f, la in actions))


def _file_state(path: Path, sha256: str, ctx: RunContext) -> str:
    """Does the exported file still hold the bytes recorded when it was written (and
    verified)?"""
    ctx.check()
    try:
        if not path.is_file():
            return "missing"
        return "unchanged" if file_sha256(path, check=ctx.check) == sha256 else "changed"
    except OSError:
        return "missing"


def _policy_rules(policy: Policy) -> tuple[str, ...]:
    rules = []
    if policy.age_over is not None:
        rules.append(f"ages are PHI only above {policy.age_over}")
    if policy.keep_years:
        rules.append("a year on its own is kept")
    if policy.keep_weekdays:
        rules.append("a weekday name on its own is kept")
    if policy.keep_sex:
        rules.append("the patient's sex is kept")
    if policy.keep_occupations:
        rules.append("an occupation is kept")
    return tuple(rules)


def _options(settings: ProjectSettings) -> tuple[tuple[str, str], ...]:
    """Detection options in words; the user dictionary is counted (its entries are PHI) and
    model files are named in the models table, never by path."""
    ner = {True: "required", False: "off"}.get(settings.ner, "used when installed") \
        if isinstance(settings.ner, bool) else "used when installed"
    return (
        ("NER model", ner),
        ("LLM detector", "on" if settings.llm_model else "off"),
        ("name and place gazetteers", "on" if settings.gazetteers else "off"),
        ("clinical allowlist", "on" if settings.allowlist else "off"),
        ("overlap policy", settings.overlap or "default"),
        ("user dictionary", f"{len(settings.user_dictionary)} entries"),
        ("export formats", ", ".join(settings.export_formats)),
    )
