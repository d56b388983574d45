"""Surrogates that cannot be mistaken for a leak (issue 15, item 3), over generated letters
where patients, doctors and relatives share first names and surnames."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from engine.core.domain import Span
from engine.core.labels import Label
from engine.core.policies import get_policy
from engine.store import StoreSurrogateMap, migrations
from engine.store.db import Database
from engine.surrogates import InMemorySurrogateMap, Surrogator

from .generated_docs import collisions, generate
from .helpers import SECRET, make, surrogator

N_DOCS = 600


def _run(sur: Surrogator, docs: list, *, per_patient: bool) -> tuple[int, Counter[tuple[str, str]]]:
    found: Counter[tuple[str, str]] = Counter()
    bad_docs = 0
    for g in docs:
        deid = sur.deidentify(g.doc, g.spans, patient=g.patient if per_patient else "default")
        hits = collisions(g.doc, g.spans, deid)
        found.update(hits)
        bad_docs += bool(hits)
    return bad_docs, found


def test_no_collisions_without_a_project() -> None:
    # Project-less `deid`: one run-scoped map, every letter under the default patient, so a
    # name's surrogate from one letter meets the real names of all the others.
    docs = list(generate(N_DOCS, seed=15))
    bad_docs, found = _run(surrogator(), docs, per_patient=False)
    assert (bad_docs, dict(found)) == (0, {})


def test_no_collisions_with_a_project(tmp_path: Path) -> None:
    db = Database(tmp_path / "p.clearnote")
    migrations.create_latest(db.engine)
    mapping = StoreSurrogateMap(db, SECRET)
    sur = Surrogator(secret=SECRET, policy=get_policy("strict"), mapping=mapping)
    found: Counter[tuple[str, str]] = Counter()
    bad_docs = 0
    try:
        for g in generate(N_DOCS, seed=16, patients=120):
            # As a project export does: surrogates stored with the document's transaction.
            with mapping.defer():
                deid = sur.deidentify(g.doc, g.spans, patient=g.patient)
            with db.write() as s:
                mapping.store_pending(s, mapping.take_pending())
            hits = collisions(g.doc, g.spans, deid)
            found.update(hits)
            bad_docs += bool(hits)
        stored = len(mapping)
    finally:
        db.close()
    assert (bad_docs, dict(found)) == (0, {})
    assert stored > 500  # the registry was really used


def test_a_patients_other_letters_can_be_avoided_too() -> None:
    docs = [g for g in generate(300, seed=17, patients=20) if g.patient == "p3"]
    assert len(docs) > 5
    others = [g.doc.slice(s) for g in docs for s in g.spans]
    sur = surrogator()
    for g in docs:
        deid = sur.deidentify(g.doc, g.spans, patient=g.patient, avoid=others)
        assert collisions(g.doc, g.spans, deid, also=others) == []


def test_independent_of_processing_order() -> None:
    # The map stores each value's canonical surrogate (a function of secret, patient and
    # value): a letter reads the same whichever letters were replaced before it.
    docs = list(generate(80, seed=18))
    forward = {g.doc.id: surrogator().deidentify(g.doc, g.spans).text for g in docs}
    shared = surrogator()
    for g in docs:
        shared.deidentify(g.doc, g.spans)
    backward = surrogator()
    outs = {g.doc.id: backward.deidentify(g.doc, g.spans).text for g in reversed(docs)}
    assert outs == forward
    assert {g.doc.id: shared.deidentify(g.doc, g.spans).text for g in docs} == forward


def test_possessives_share_the_base_surrogate_and_keep_the_ending() -> None:
    text = ("Bartholomew Ravensworth was seen. Ravensworth's wound healed; the "
            "Ravensworths' home is near. Mr. Ravensworth agreed.")
    doc, spans = make(text, ("Bartholomew Ravensworth", Label.PATIENT),
                      ("Ravensworth's", Label.PATIENT), ("Ravensworths'", Label.PATIENT),
                      ("Ravensworth", Label.PATIENT))
    out = surrogator().deidentify(doc, spans, patient="p1").text
    m = re.match(r"(\w+) (\w+) was seen\. (\w+)'s wound healed; the (\w+?)(e?s)' home is "
                 r"near\. Mr\. (\w+) agreed\.", out)
    assert m is not None, out
    assert m.group(2) == m.group(3) == m.group(4) == m.group(6) != "Ravensworth"
    assert "Ravensworth" not in out


def test_one_string_one_label_prefers_a_person() -> None:
    text = "She moved to Morrow last year. Dr. Morrow saw her. Morrow will call."
    doc, spans = make(text, ("Morrow", Label.LOCATION, "CITY"), ("Dr. Morrow", Label.DOCTOR),
                      ("Morrow", Label.LOCATION, "CITY"))
    deid = surrogator().deidentify(doc, spans, patient="p1")
    assert [r.label for r in deid.replacements] == [Label.DOCTOR] * 3
    news = [deid.text[r.output_start:r.output_end] for r in deid.replacements]
    assert news[0] == news[2] and news[1] == f"Dr. {news[0]}" and news[0] != "Morrow"


def test_a_patient_name_tagged_doctor_is_not_kept_by_a_provider_policy() -> None:
    text = "Patient Quill, cough. Seen by Quill at home."
    doc, spans = make(text, ("Quill", Label.PATIENT), ("Quill", Label.DOCTOR))
    sur = Surrogator(secret=SECRET, policy=get_policy("canadian-referral"),
                     mapping=InMemorySurrogateMap())
    out = sur.deidentify(doc, spans, patient="p1").text
    assert "Quill" not in out


@pytest.mark.parametrize(("pronoun", "title", "gender"), [
    ("He", "Mr.", "M"), ("She", "Ms.", "F"), ("He", "", "M"), ("She", "", "F"),
])
def test_gender_follows_pronouns_and_titles(pronoun: str, title: str, gender: str) -> None:
    names = surrogator().names
    hits = Counter()
    for first in ("Zebulon", "Tarquin", "Quill", "Ellery", "Marlo"):
        assert names.gender_of(first) is None  # the name alone does not say
        later = f" {title} Fairweather came back." if title else ""
        text = f"{first} Fairweather was admitted. {pronoun} has a cough.{later}"
        items: list = [(f"{first} Fairweather", Label.PATIENT)]
        if title:
            items.append(("Fairweather", Label.PATIENT))
        doc, spans = make(text, *items)
        out = surrogator().deidentify(doc, spans, patient=first).text
        new_first = out.split()[0]
        hits[names.gender_of(new_first)] += 1
    assert hits[gender] == 5, hits


def test_surrogate_for_with_the_documents_spans_matches_deidentify() -> None:
    g = next(generate(1, seed=19))
    sur = surrogator()
    deid = sur.deidentify(g.doc, g.spans, patient=g.patient)
    by_id: dict[str, Span] = {s.id: s for s in g.spans}
    for r in deid.replacements:
        assert deid.text[r.output_start:r.output_end] == sur.surrogate_for(
            g.doc, by_id[r.span_id], patient=g.patient, others=g.spans)


def test_a_document_holding_every_listed_name_still_gets_surrogates() -> None:
    """Issue 17: a whole EHR extract in one text can name so many people that every listed
    name is an original of the document; names are then coined, never a crash."""
    from engine.core.domain import Document
    from engine.surrogates.names import name_data

    data = name_data("en_US")
    people = [f"{first} {last}" for first, last in
              zip(data.male + data.female, data.last * 2, strict=False)]
    people += [f"Ann {last}" for last in data.last]
    text = "\n".join(f"Seen by {person}." for person in people)
    spans, pos = [], 0
    for person in people:
        start = text.index(person, pos)
        spans.append(Span(start, start + len(person), Label.PERSON))
        pos = start + len(person)
    originals = {w.casefold() for p in people for w in p.split()}
    deid = surrogator().deidentify(Document.from_text(text), spans, patient="p1")
    new_words = {w.casefold() for r in deid.replacements
                 for w in re.findall(r"\w+", deid.text[r.output_start:r.output_end])}
    assert new_words and not new_words & originals


def test_places_are_coined_when_every_place_faker_can_draw_is_an_original() -> None:
    """Issue 17: a 10 MB extract names most of Faker's cities and surnames, and every drawn
    hospital or city collided with an original until the retries gave up (512 keyed draws
    per place, then a tag). After a few draws places are coined words instead, with a
    facility suffix of their own."""
    from faker import Faker

    from engine.core.domain import Document
    from engine.surrogates.guard import Avoid

    faker = Faker("en_US")
    address = next(p for p in faker.providers if type(p).__module__.endswith("address.en_US"))
    person = next(p for p in faker.providers if type(p).__module__.endswith("person.en_US"))
    firsts, lasts = list(person.first_names), list(person.last_names)
    originals = list(address.city_prefixes) + lasts + [
        f"{name}{suffix}" for name in firsts + lasts for suffix in address.city_suffixes]
    # "Children's Hospital" alone is an original too: the suffix of the next one must change.
    places = [("Children's Hospital", Label.HOSPITAL, None),
              ("Lakeside Children's Hospital", Label.HOSPITAL, None),
              ("Mercy General Hospital", Label.HOSPITAL, None),
              ("Springfield", Label.LOCATION, "CITY"), ("12 Oak Street", Label.LOCATION, "STREET")]
    text = "\n".join(originals + [p[0] for p in places])
    spans, pos = [], 0
    for value, label, subtype in [(o, Label.LOCATION, "CITY") for o in originals] + places:
        start = text.index(value, pos)
        spans.append(Span(start, start + len(value), label, subtype=subtype))
        pos = start + len(value)
    doc, sur = Document.from_text(text), surrogator()
    avoid = Avoid(originals + [p[0] for p in places])
    for span in spans[-len(places):]:
        new = sur.surrogate_for(doc, span, patient="p1", others=spans)
        assert not new.startswith("["), span.label  # a surrogate, not the tag of giving up
        assert avoid.ok(new), span.label
