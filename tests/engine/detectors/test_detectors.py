from __future__ import annotations

import logging
import time

import pytest

from engine.core.context import RunContext
from engine.core.domain import Document, Source
from engine.core.errors import CancelledError
from engine.core.labels import SUBTYPES, Label
from engine.detectors.base import Detector
from engine.detectors.dictionary import (
    LocationGazetteerDetector,
    NameGazetteerDetector,
    UserDictionaryDetector,
)
from engine.detectors.regex import RegexRule, RuleDetector, default_rule_detectors

EXPECTED_IDS = {"regex.date", "regex.phone", "regex.email", "regex.url", "regex.ip",
                "regex.ssn", "regex.sin", "regex.id", "regex.phn", "regex.postal",
                "regex.address", "regex.age", "regex.name", "regex.finance",
                "regex.facility", "regex.staff", "regex.sex"}

NOTE = ("REFERRAL LETTER\nPatient: Margaret Thompson   DOB: 1951-04-12   MRN: 00412233\n"
        "Health card 1234-567-897-AB. 123 Main Street, Toronto, ON M5V 2T6. "
        "Tel (416) 555-0142, fax 416-555-0199.\n"
        "Dear Dr. Amelia Rutherford,\nThank you for seeing this 72-year-old woman with "
        "Parkinson's disease, on levodopa, who completed 6 minutes of the Bruce protocol on "
        "March 3, 2021. BP 130/80, pain 3/10. Email m.thompson@example.org.\n"
        "Sincerely,\n\nSamir Patel, MD\n") * 3


def all_detectors() -> list[Detector]:
    return [*default_rule_detectors(), NameGazetteerDetector(), LocationGazetteerDetector(),
            UserDictionaryDetector([("Lakeside Clinic", Label.HOSPITAL)])]


def test_family_ids_and_protocol() -> None:
    detectors = default_rule_detectors()
    assert {d.spec.id for d in detectors} == EXPECTED_IDS
    for d in all_detectors():
        assert isinstance(d, Detector)
        assert d.spec.qualified.startswith(d.spec.id + "@")


def test_spans_are_well_formed() -> None:
    doc = Document.from_text(NOTE)
    for d in all_detectors():
        for span in d.detect(doc, RunContext()):
            assert 0 <= span.start < span.end <= len(doc.text)
            assert span.detector == d.spec.qualified
            assert span.source in (Source.RULE, Source.DICTIONARY)
            assert span.subtype is None or span.subtype in SUBTYPES[span.label]
            assert doc.slice(span) == doc.slice(span).strip()


def test_subtypes_from_context() -> None:
    doc = Document.from_text("Fax: 416-555-0199. Pager 4432. Cell 416-555-0142.")
    (phone,) = [d for d in default_rule_detectors() if d.spec.id == "regex.phone"]
    subtypes = {doc.slice(s): s.subtype for s in phone.detect(doc, RunContext())}
    assert subtypes == {"416-555-0199": "FAX", "4432": "PAGER", "416-555-0142": "PHONE"}


def test_cancel_is_honoured() -> None:
    ctx = RunContext()
    ctx.cancel.cancel()
    for d in all_detectors():
        with pytest.raises(CancelledError):
            d.detect(Document.from_text(NOTE), ctx)


def test_rule_rejects_bad_subtype_without_text() -> None:
    with pytest.raises(ValueError) as info:
        RegexRule("bad", Label.DATE, r"\d+", 0.5, subtype="EMAIL")
    assert "EMAIL" in str(info.value)
    with pytest.raises(ValueError):
        RuleDetector("regex.empty", [])


def test_no_phi_in_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    doc = Document.from_text(NOTE)
    for d in all_detectors():
        d.detect(doc, RunContext())
    for phi in ("Thompson", "Rutherford", "00412233", "555-0142"):
        assert phi not in caplog.text


def _nasty(times: int) -> Document:
    return Document.from_text(("Aaaa Bbbb Cccc " * 50 + "1 2 3 4 5 6 " * 50 + "a-" * 125
                               + "Dr. " * 50 + "12/" * 75) * times)


def test_no_catastrophic_backtracking() -> None:
    """Inputs made to make regexes backtrack grow linearly: four times the text costs about
    four times the CPU, not sixteen (quadratic) or worse. A ratio of CPU seconds in one
    process, not a wall-clock limit, so a loaded CI machine cannot turn it red; speed
    itself is measured by benchmarks/throughput.py."""
    detectors = all_detectors()
    for d in detectors:  # warm caches
        d.detect(Document.from_text(NOTE[:1500]), RunContext())

    def cpu(doc: Document) -> float:
        started = time.process_time()
        for d in detectors:
            d.detect(doc, RunContext())
        return time.process_time() - started

    small = min(cpu(_nasty(4)) for _ in range(3))
    large = min(cpu(_nasty(16)) for _ in range(3))
    assert large < 10 * max(small, 0.005)


def test_cue_names_read_each_lines_case() -> None:
    """A lower-case line takes listed names that are also words ("hope"); a line with
    capitals does not. The case is read once per line, so each cue gets its own line's."""
    from engine.detectors.dictionary.cues import CueNameDetector

    text = ("patient: hope smith\nSeen Today. patient: hope smith\npatient: hope smith\n"
            + "Seen Today. Patient: Zebulon Quasimodo MRN 4. " * 400)  # one long line
    spans = CueNameDetector().detect(Document.from_text(text), RunContext())
    found = [(s.start, text[s.start:s.end]) for s in spans]
    assert found[:2] == [(9, "hope smith"), (61, "hope smith")]
    assert [name for _, name in found[2:]] == ["Zebulon Quasimodo"] * 400


def _rule_finds(text: str) -> list[tuple[str, str]]:
    doc = Document.from_text(text)
    return [(s.label.value, text[s.start:s.end]) for det in default_rule_detectors()
            for s in det.detect(doc, RunContext())
            if s.label in (Label.LOCATION, Label.HOSPITAL)]


@pytest.mark.parametrize("text", [
    "to me it's the most beautiful place in the world, this song",
    "there's this nice new russian place downtown. cool",
    "THERE'S THIS NICE NEW RUSSIAN PLACE DOWNTOWN. COOL",
    "COULD YOU PLEASE CORRECT IT TO DR. CETTINA FANUCCI?",
    "I WITHDRAW CASH AT ATM CENTER ?",
])
def test_caseless_prose_is_no_street_or_institution(text: str) -> None:
    assert _rule_finds(text) == []


@pytest.mark.parametrize(("text", "street"), [
    ("lives at rua mina 50, sao paulo", "rua mina 50"),
    ("Lives at Rue de la Paix, Paris", "Rue de la Paix, Paris"),
    ("2060 avenida otoniel dutra 1277", "2060 avenida otoniel dutra 1277"),
    ("sent to 6889 ul. jarzębinowa 5", "6889 ul. jarzębinowa 5"),
])
def test_streets_after_a_prefix_keep_their_numbers(text: str, street: str) -> None:
    assert ("LOCATION", street) in _rule_finds(text)
