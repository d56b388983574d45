"""One row of an extract, de-identified by its columns' roles.

Every replacement of a row is made in its patient's scope (the patient-key column, keyed
with the secret; without one, the row's name and date of birth): names get the surrogates
that patient's names get anywhere in the run, identifiers keep their format, dates and
dates of birth move by the patient's one shift (every interval kept, across years), ages
over 89 become 90+, ZIP codes keep their first three digits (000 for the restricted
prefixes), and free text goes through the full pipeline with the row's own identifier
values as known identifiers of that document.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span
from engine.core.errors import ExportVerificationError
from engine.core.labels import Label
from engine.resolution.overlaps import resolve_overlaps
from engine.session import Session
from engine.surrogates import keys
from engine.surrogates.dates import shift_date
from engine.tables.roles import Role
from engine.tables.schema import TableSchema

# Three-digit ZIP prefixes of 20,000 people or fewer (2000 census), which Safe Harbor
# replaces with 000.
RESTRICTED_ZIP3 = frozenset({"036", "059", "063", "102", "203", "556", "692", "790", "821",
                             "823", "830", "831", "878", "879", "884", "890", "893"})
_ZIP = re.compile(r"^\s*(\d{3})\d{2}(?:-?\d{4})?\s*$")
_POSTAL_CA = re.compile(r"^\s*([A-Za-z]\d[A-Za-z])[ -]?\d[A-Za-z]\d\s*$")
_AGE = re.compile(r"^\s*(\d{1,3})\b")
_NAME_WORD = re.compile(r"[^\W\d_]{2,}")
OVER_89 = "90+"
# Roles whose original values must not survive anywhere in their row's replaced cells.
CHECKED = (Role.PATIENT_KEY, Role.NAME, Role.IDENTIFIER, Role.PHONE, Role.EMAIL,
           Role.ADDRESS)
MIN_CHECKED = 4  # shorter values ("Li", "12") may occur by chance

# The label a role's cells (and their values inside the row's free text) are replaced as.
LABELS: dict[Role, tuple[Label, str | None]] = {
    Role.NAME: (Label.PATIENT, None),
    Role.PATIENT_KEY: (Label.ID, "MRN"),
    Role.IDENTIFIER: (Label.ID, None),
    Role.PHONE: (Label.PHONE, None),
    Role.EMAIL: (Label.WEB, "EMAIL"),
    Role.ADDRESS: (Label.LOCATION, None),
    Role.ZIP: (Label.LOCATION, "POSTAL_CODE"),
    Role.DATE: (Label.DATE, None),
    Role.DOB: (Label.DATE, "DOB"),
}


def coarse_zip(value: str) -> str:
    """HIPAA Safe Harbor: the first three digits, 000 where they cover 20,000 people or
    fewer; a Canadian postal code keeps its forward sortation area. Anything else is no
    ZIP code and is replaced by zeros of its shape."""
    us = _ZIP.match(value)
    if us:
        return "000" if us[1] in RESTRICTED_ZIP3 else us[1]
    ca = _POSTAL_CA.match(value)
    if ca:
        return ca[1].upper()
    return re.sub(r"[A-Za-z0-9]", "0", value)


def coarse_age(value: str) -> str:
    found = _AGE.match(value)
    if found and int(found[1]) > 89:
        return OVER_89
    return value


# Given a row's linking cells (label, subtype, value), its surrogate scope: a run's patient
# linker, so that a table's rows and the notes of the same patient share one scope.
ScopeOf = Callable[[Sequence[tuple[Label, str | None, str]]], str]


@dataclass(frozen=True)
class RowReview:
    """A person's decisions on one row (a table reviewed in its project): ``kept``, the
    columns whose identifier cell was rejected (written as it is); ``notes``, for each
    free-text column, the spans to replace (offsets into the cell), instead of detecting."""

    kept: frozenset[int] = frozenset()
    notes: Mapping[int, Sequence[Span]] = field(default_factory=dict)


# Called once per data row, in reading order, with the row's schema and values: the row's
# decisions (``engine.project`` reads them from the store), or None to detect as usual.
ReviewOf = Callable[[TableSchema, Sequence[str]], RowReview | None]


class RowDeidentifier:
    def __init__(self, session: Session, schema: TableSchema,
                 ctx: RunContext | None = None, *, scope_of: ScopeOf | None = None,
                 review_of: ReviewOf | None = None) -> None:
        self.session, self.schema, self.ctx = session, schema, ctx or RunContext()
        self.scope_of, self.review_of = scope_of, review_of
        self.secret = session.config.secret
        self._key = schema.indexes(Role.PATIENT_KEY)
        self._fallback = schema.indexes(Role.NAME, Role.DOB)
        self._checked = schema.indexes(*CHECKED)
        self.spans = 0  # replaced in free text, over the run

    def patient_of(self, values: Sequence[str]) -> str:
        """The row's surrogate scope: the run's patient for its MRN (or name and date of
        birth), else a keyed digest of its patient key, never the key itself."""
        if self.scope_of is not None:
            return self.scope_of(self._linking_cells(values))
        parts = [keys.norm_id(values[i]) for i in self._key] if self._key else \
            [keys.norm_text(values[i]) for i in self._fallback]
        if not any(parts):
            return "default"
        return "T" + keys.digest(self.secret, "table-patient", *parts).hex()[:16]

    def _linking_cells(self, values: Sequence[str]) -> list[tuple[Label, str | None, str]]:
        return linking_cells(self.schema, values)

    def row(self, values: Sequence[str], *, where: str = "a row") -> list[str]:
        """The row de-identified; ``where`` names it if an original identifier value
        survives in it, which fails the table closed."""
        review = self.review_of(self.schema, values) if self.review_of else None
        kept = review.kept if review is not None else frozenset()
        patient = self.patient_of(values)
        out = []
        for index, value in enumerate(values):
            role = self.schema.role_of(index)
            if not value.strip() or role is Role.KEEP or index in kept:
                out.append(value)
            elif role is Role.FREE_TEXT and review is not None:
                out.append(self._free_text(value, values, patient,
                                           review.notes.get(index, ())))
            else:
                out.append(self._cell(role, value, values, patient))
        self._verify(values, out, where, kept)
        return out

    def _verify(self, values: Sequence[str], out: list[str], where: str,
                kept: frozenset[int] = frozenset()) -> None:
        """Fail closed if an identifier value survived; a cell a person rejected (kept as
        written) is neither checked nor checked against."""
        replaced = "\n".join(v for i, v in enumerate(out) if i not in kept
                             and self.schema.role_of(i) is not Role.KEEP).casefold()
        for index in self._checked:
            if index in kept:
                continue
            original = values[index].strip()
            if len(original) >= MIN_CHECKED and original.casefold() in replaced:
                raise ExportVerificationError(
                    f"{where}, column {index + 1}: an original value survived "
                    "de-identification; nothing was written")

    def _cell(self, role: Role, value: str, values: Sequence[str], patient: str) -> str:
        if role is Role.DROP:
            return ""
        if role is Role.AGE:
            return coarse_age(value)
        if role is Role.ZIP:
            return coarse_zip(value)
        if role in (Role.DATE, Role.DOB):
            return shift_date(value, keys.date_shift_days(self.secret, patient),
                              keep_years=False,
                              rng=keys.rng_for(self.secret, patient, "DATE", value))
        if role is Role.FREE_TEXT:
            return self._free_text(value, values, patient)
        label, subtype = LABELS[role]
        doc = Document.from_text(value)
        span = Span(0, len(value), label, source=Source.MANUAL, subtype=subtype)
        return self.session.deidentify(doc, [span], patient=patient, ctx=self.ctx).text

    def _free_text(self, text: str, values: Sequence[str], patient: str,
                   reviewed: Sequence[Span] | None = None) -> str:
        doc = Document.from_text(text)
        spans = list(reviewed) if reviewed is not None else self.free_text_spans(doc, values)
        self.spans += len(spans)
        return self.session.deidentify(doc, spans, patient=patient, ctx=self.ctx).text

    def free_text_spans(self, doc: Document, values: Sequence[str]) -> list[Span]:
        """What a free-text cell replaces: the pipeline's spans and the row's own
        identifier values where the text repeats them (the review export shows these)."""
        found = self.session.detect(doc, self.ctx).active
        return resolve_overlaps([*found, *self._known_spans(doc.text, values)])

    def _known_spans(self, text: str, values: Sequence[str]) -> list[Span]:
        """The row's identifier values where the note repeats them: a full name and each
        of its words ("Plan reviewed with Ottilie"), an MRN, a phone number..."""
        spans = []
        for index, value in enumerate(values):
            role = self.schema.role_of(index)
            if role not in LABELS or role in (Role.DATE, Role.DOB) or not value.strip():
                continue  # dates in notes are found by the date rules, in any format
            label, subtype = LABELS[role]
            needles = [value.strip()]
            if role is Role.NAME:
                needles += _NAME_WORD.findall(value)
            for needle in needles:
                spans += _occurrences(text, needle, label, subtype)
        return spans


def linking_cells(schema: TableSchema, values: Sequence[str]
                  ) -> list[tuple[Label, str | None, str]]:
    """The cells that link a row to its patient: patient keys as MRNs, the name, the
    date of birth (label, subtype, value), read as a document's identifiers are."""
    name = " ".join(values[i].strip() for i in schema.indexes(Role.NAME))
    return [*((Label.ID, "MRN", values[i]) for i in schema.indexes(Role.PATIENT_KEY)),
            (Label.PATIENT, None, name),
            *((Label.DATE, "DOB", values[i]) for i in schema.indexes(Role.DOB))]


def _occurrences(text: str, needle: str, label: Label, subtype: str | None) -> list[Span]:
    """Whole-word, case-insensitive occurrences (offsets into ``text`` itself)."""
    pattern = re.compile(rf"(?<!\w){re.escape(needle)}(?!\w)", re.IGNORECASE)
    return [Span(m.start(), m.end(), label, source=Source.MANUAL, subtype=subtype,
                 detector="table.row@1") for m in pattern.finditer(text)]
