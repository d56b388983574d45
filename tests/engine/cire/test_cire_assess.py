from __future__ import annotations

import pytest

from engine.cire import CireReport, FlagReason, FlagSource, Severity, assess
from engine.cire.align import align_tokens, tokenize
from engine.cire.assess import chunk_pairs
from engine.cire.lexicon import find_clinical
from engine.core.context import RunContext
from engine.core.domain import Document
from engine.core.errors import CancelledError
from engine.core.labels import Label
from engine.core.policies import get_policy

from .helpers import deidentify, edit

NOTE = ("Martha Collins is a 50-year-old female with congestive heart failure and "
        "hypertension. We will increase her lisinopril to 40 mg daily and start Lasix 20 mg. "
        "Hemoglobin A1c was 7.2% in 2019. Seen by Dr. Adams.")
STRICT, REFERRAL = get_policy("strict"), get_policy("canadian-referral")


class FakeJudge:
    name = "fake-judge"

    def __init__(self, answer: bool = True) -> None:
        self.answer = answer
        self.seen: list[tuple[str, str]] = []
        self.documents = 0

    def begin_document(self) -> None:
        self.documents += 1

    def changed(self, original: str, deidentified: str) -> bool:
        self.seen.append((original, deidentified))
        return self.answer


def _reasons(report: CireReport) -> list[tuple[FlagReason, Severity, str]]:
    return [(f.reason, f.severity, f.detail) for f in report.flags]


def test_name_replacements_keep_clinical_meaning() -> None:
    doc = Document.from_text(NOTE)
    deid = deidentify(doc, [edit(doc, "Martha Collins", "Jane Doe"),
                            edit(doc, "Adams", "Brown", Label.DOCTOR)])
    report = assess(doc, deid, policy=STRICT)
    assert report.flags == () and report.retention_score == 1.0
    assert report.chunks_total == 2 and report.chunks_differing == 2


@pytest.mark.parametrize(("needle", "new", "reason", "detail"), [
    ("lisinopril", "Smith", FlagReason.LEXICON_TERM, "drug"),
    ("congestive heart failure", "[OTHER]", FlagReason.LEXICON_TERM, "diagnosis"),
    ("40 mg", "10 mg", FlagReason.DOSE, "dose"),
    ("7.2%", "[ID]", FlagReason.LAB_VALUE, "lab"),
])
def test_guard_flags_replaced_clinical_content(needle: str, new: str, reason: FlagReason,
                                               detail: str) -> None:
    doc = Document.from_text(NOTE)
    deid = deidentify(doc, [edit(doc, needle, new)])
    report = assess(doc, deid, policy=STRICT)
    assert (reason, Severity.HIGH, detail) in _reasons(report)
    flag = report.flags[0]
    assert flag.source is FlagSource.GUARD and flag.replacement_span_id == "s0"
    assert doc.text[flag.start:flag.end] == needle  # type: ignore[misc]
    assert report.chunks_changed == 1 and report.retention_score < 1.0


def test_age_flag_depends_on_policy() -> None:
    doc = Document.from_text(NOTE)
    deid = deidentify(doc, [edit(doc, "50", "[AGE]", Label.AGE)])
    kept = assess(doc, deid, policy=REFERRAL)  # providers, ages and years stay
    assert (FlagReason.AGE, Severity.HIGH, "age kept by policy") in _reasons(kept)
    assert FlagReason.AGE not in {f.reason for f in assess(doc, deid, policy=STRICT).flags}
    assert FlagReason.AGE in {f.reason for f in
                              assess(doc, deid, policy=get_policy("hipaa")).flags}


def test_year_kept_by_policy() -> None:
    doc = Document.from_text("DOB 12/12/1999. Seen in 2019.")
    lost = deidentify(doc, [edit(doc, "12/12/1999", "[DATE]", Label.DATE)])
    kept = deidentify(doc, [edit(doc, "12/12/1999", "03/04/1999", Label.DATE)])
    assert _reasons(assess(doc, lost, policy=REFERRAL)) == [
        (FlagReason.YEAR, Severity.LOW, "year kept by policy")]
    assert assess(doc, kept, policy=REFERRAL).flags == ()
    assert assess(doc, lost, policy=STRICT).flags == ()


def test_unrecorded_edit_is_flagged() -> None:
    doc = Document.from_text(NOTE)
    deid = deidentify(doc, [])
    tampered = type(deid)(deid.document_id, deid.text.replace("40 mg", "4 mg"), (), deid.mode)
    report = assess(doc, tampered, policy=STRICT)
    assert [(f.reason, f.replacement_span_id) for f in report.flags] == [
        (FlagReason.UNRECORDED_EDIT, None)]


def test_judge_sees_only_differing_chunks_and_adds_flags() -> None:
    doc = Document.from_text(NOTE)
    deid = deidentify(doc, [edit(doc, "Martha Collins", "Jane Doe")])
    judge = FakeJudge(True)
    report = assess(doc, deid, policy=STRICT, judge=judge, chunk_tokens=10)
    assert judge.documents == 1 and len(judge.seen) == 1
    assert judge.seen[0][0].startswith("Martha Collins is") and "Jane Doe" in judge.seen[0][1]
    assert [(f.source, f.chunk_index, f.replacement_span_id, f.severity)
            for f in report.flags] == [(FlagSource.JUDGE, 0, "s0", Severity.LOW)]
    assert report.judge == "fake-judge"
    assert report.chunks_total == 4 and report.retention_score == 0.75
    no = assess(doc, deid, policy=STRICT, judge=FakeJudge(False), chunk_tokens=10)
    assert no.flags == () and no.retention_score == 1.0


def test_judge_severity_high_when_clinical_tokens_changed() -> None:
    doc = Document.from_text(NOTE)
    deid = deidentify(doc, [edit(doc, "lisinopril", "Smith")])
    report = assess(doc, deid, policy=STRICT, judge=FakeJudge(True))
    judged = [f for f in report.flags if f.source is FlagSource.JUDGE]
    assert judged and judged[0].severity is Severity.HIGH


def test_chunking_is_fixed_size() -> None:
    a = tokenize(" ".join(f"t{i}" for i in range(45)))
    pairs = align_tokens([t.text for t in a], [t.text for t in a])
    chunks = chunk_pairs(a, a, pairs, 20)
    assert [len(c.pairs) for c in chunks] == [20, 20, 5]
    assert not any(c.differing for c in chunks)


def test_cancellation_between_judge_calls() -> None:
    doc = Document.from_text(NOTE)
    deid = deidentify(doc, [edit(doc, "Martha Collins", "Jane Doe"),
                            edit(doc, "Adams", "Brown", Label.DOCTOR)])
    ctx = RunContext()

    class CancellingJudge(FakeJudge):
        def changed(self, original: str, deidentified: str) -> bool:
            ctx.cancel.cancel()
            return super().changed(original, deidentified)

    judge = CancellingJudge()
    with pytest.raises(CancelledError):
        assess(doc, deid, policy=STRICT, judge=judge, chunk_tokens=10, ctx=ctx)
    assert len(judge.seen) == 1


def test_lexicon_finds_terms_units_and_labs() -> None:
    text = "Takes Lasix 20 mg twice daily; BP 140/90; A1c of 7.2%; knee pain for 3 weeks."
    kinds = {(h.kind, text[h.start:h.end]) for h in find_clinical(text)}
    assert ("term", "Lasix") in kinds and ("dose", "20 mg") in kinds
    assert ("dose", "twice daily") in kinds and ("measurement", "140/90") in kinds
    assert ("lab_value", "A1c of 7.2%") in kinds and ("term", "knee pain") in kinds
    assert ("measurement", "3 weeks") in kinds


def test_guard_finds_the_hits_each_replacement_overlaps() -> None:
    """The guard's bisection index returns exactly the overlapping hits, in their order."""
    import random

    from engine.cire.guard import _HitIndex
    from engine.cire.lexicon import Hit

    rng = random.Random(3)
    hits = [Hit(s, s + rng.randint(0, 30), "term", "x")
            for s in (rng.randint(0, 2000) for _ in range(400))]
    index = _HitIndex(hits)
    for _ in range(500):
        start = rng.randint(0, 2000)
        end = start + rng.randint(1, 40)
        assert index(start, end) == [h for h in hits if h.start < end and start < h.end]


def test_guard_flags_every_copy_of_a_long_note() -> None:
    # The same flags in each copy: the guard sees every replacement of a long text.
    from engine.cire.guard import ClinicalGuard

    def flags(copies: int) -> list[FlagReason]:
        text = " ".join([NOTE] * copies)
        doc = Document.from_text(text)
        at = [i * (len(NOTE) + 1) + NOTE.index("40 mg") for i in range(copies)]
        deid = deidentify(doc, [(a, a + 5, "12 mg", Label.OTHER) for a in at])
        found = ClinicalGuard(policy=REFERRAL).check(doc, deid.text, deid.replacements)
        return [f.reason for f in found]

    one = flags(1)
    assert one and flags(300) == one * 300
