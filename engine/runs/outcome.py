"""What happened to each input of a run, and the run's report: one outcome type and one
report type for every sink (a folder, a project).

Two audiences, two vocabularies. The person at the terminal or window sees a failure with
the file, named relative to the input folder they gave, and the problem in words
(``problem``). ``report.csv`` in the export folder sees ids only, with the reason
(``reason``) checked against the source names; the key file links the two.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.core.errors import ClearNoteError
from engine.core.messages import DISK_FULL, display_name, problem_in_words
from engine.parallel import error_reason


class Status:
    OK = "ok"
    FAILED = "failed"  # could not be read, or failed in detection / export
    DUPLICATE = "duplicate"  # same content as an earlier input of the run
    DONE_BEFORE = "already done"  # exported by an earlier run (a project resumes)
    NOT_RUN = "not run"  # the run was cancelled before it


CANCELLED = "the run was cancelled"


@dataclass
class FileOutcome:
    document_id: str
    source: Path
    status: str = Status.OK
    outputs: list[Path] = field(default_factory=list)
    spans: int = 0
    cire_high: int = 0
    problem: str | None = None  # for the person: in words, no file name
    reason: str | None = None  # for report.csv: ids and words only
    duplicate_of: FileOutcome | None = None
    needs_review: bool = False
    patient: str | None = None

    def fail(self, problem: str, reason: str | None = None) -> FileOutcome:
        self.status, self.problem, self.reason = Status.FAILED, problem, reason or problem
        return self

    def failed_by(self, exc: ClearNoteError | OSError) -> FileOutcome:
        """Failed by ``exc``: the problem in words for the person at the terminal, the
        error's reason (its kind and problem, no PHI) for report.csv."""
        problem = problem_in_words(exc)
        return self.fail(problem, error_reason(exc) if isinstance(exc, ClearNoteError)
                         else problem)

    def not_run(self) -> FileOutcome:
        self.status, self.problem, self.reason = Status.NOT_RUN, CANCELLED, CANCELLED
        return self


@dataclass
class RunReport:
    """Every input's outcome, in input order, and where the report and the key went.
    ``unwritten`` lists the run's own files that could not be written (report.csv on a
    full disk): the summary then stands in for them, and the run is not a success."""

    roots: list[Path] = field(default_factory=list)  # the inputs as the user gave them
    out_dir: Path | None = None
    outcomes: list[FileOutcome] = field(default_factory=list)
    report_csv: Path | None = None
    key_file: Path | None = None  # None: the key stays in the project
    key_notice: str = ""
    cancelled: bool = False
    seconds: float = 0.0
    unwritten: list[str] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)

    @property
    def failed(self) -> list[FileOutcome]:
        return [o for o in self.outcomes if o.status == Status.FAILED]

    @property
    def ok(self) -> bool:
        return not self.failed and not self.unwritten and not self.cancelled

    @property
    def cire_high(self) -> int:
        return sum(o.cire_high for o in self.outcomes)

    def label(self, outcome: FileOutcome) -> str:
        """The file relative to the input folder, and its id (the key links the two)."""
        return f"{display_name(outcome.source, self.roots)} [{outcome.document_id}]"

    def headline(self) -> str:
        done = self.count(Status.OK)
        rate = done / self.seconds if self.seconds > 0 else 0.0
        return (f"{len(self.outcomes)} input(s): de-identified {done}, already done "
                f"{self.count(Status.DONE_BEFORE)}, duplicates {self.count(Status.DUPLICATE)}, "
                f"failed {len(self.failed)}, not run {self.count(Status.NOT_RUN)}, "
                f"CIRE high flags {self.cire_high} in {self.seconds:.1f}s ({rate:.1f} docs/s)"
                + (" (cancelled)" if self.cancelled else ""))

    def problem_lines(self) -> list[str]:
        """One line per input that needs the person's attention, named relative to the
        input folder; never an exception class."""
        lines = []
        for o in self.outcomes:
            if o.status == Status.FAILED:
                lines.append(f"  failed: {self.label(o)}: {o.problem}")
            elif o.status == Status.DUPLICATE and o.duplicate_of is not None:
                lines.append(f"  duplicate: {self.label(o)}: same content as "
                             f"{self.label(o.duplicate_of)}")
            elif o.status == Status.OK and o.needs_review:
                lines.append(f"  needs review: {self.label(o)}: uncertain text decoding")
        if self.count(Status.NOT_RUN):
            lines.append(f"  not run: {self.count(Status.NOT_RUN)} input(s) ({CANCELLED})")
        lines += [f"  not written: {what}" for what in self.unwritten]
        if self.disk_full:
            where = f" holding {self.out_dir}" if self.out_dir is not None else ""
            lines.append(f"The disk{where} is full: free space and run the same command "
                         "again")
        return lines

    @property
    def disk_full(self) -> bool:
        return any(DISK_FULL in (o.problem or "") for o in self.failed) or \
            any(DISK_FULL in what for what in self.unwritten)

    def summary(self) -> str:
        lines = [self.headline(), *self.problem_lines()]
        if self.key_notice:
            lines.append(self.key_notice)
        return "\n".join(lines)
