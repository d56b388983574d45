"""``build_profile``: reviewed decisions + imported lists + corpus statistics -> a Profile.

Pure and deterministic: inputs in any order give the same profile bytes.

- an accepted or added name, place or hospital becomes a PHI entry (``source`` review);
- a list row becomes PHI entries (``source`` list, tied to its patient when a list said so);
- a rejected span becomes a vocabulary entry for its label family and context kind, unless
  the same text was accepted in that family somewhere (the reviewer's "yes" wins) or a list
  names it;
- the corpus's clinical words (engine.profile.corpus) become vocabulary entries, unless
  anything above says the word is PHI;
- ``common``: the entries' tokens that the project writes everywhere or as plain words, and
  its plain words one edit from an entry token; an accepted span made only of such words is
  no entry (the simulated reviewer accepts what overlaps PHI: "de la" in "calle de la Paz").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rapidfuzz.distance import Levenshtein

from engine.core.labels import Label
from engine.profile.corpus import CORPUS_MIN_PLAIN, CorpusStats
from engine.profile.model import (
    FUZZY_MIN_LENGTH,
    KIND_LABEL,
    LABEL_KIND,
    EntrySource,
    PhiEntry,
    PhiKind,
    Profile,
    VocabEntry,
    entry_tokens,
    normal_key,
)

# Label families: a rejection teaches about its own family only ("Foley" rejected as a
# patient's name says nothing about "Foley" as a street).
FAMILIES: dict[Label, str] = {
    Label.PATIENT: "name", Label.PERSON: "name", Label.DOCTOR: "name",
    Label.LOCATION: "place", Label.HOSPITAL: "place", Label.ID: "id", Label.OTHER: "other",
}
# Label preference when reviewers gave one text several labels (most decisions first).
_LABEL_ORDER = tuple(LABEL_KIND)


@dataclass(frozen=True)
class Decision:
    """One review decision on a span, with the covered text (the project reads it from the
    document; nothing here is logged)."""

    text: str
    label: Label
    accepted: bool  # accepted or added by a person; False: rejected
    context: str = "plain"  # "name" or "plain" (see VocabEntry)
    patient: str | None = None  # the document's patient


@dataclass(frozen=True)
class ListEntry:
    """One name, place or ward from an imported list."""

    text: str
    kind: PhiKind
    patient: str | None = None


def _useful(key: str) -> bool:
    """At least two characters and a letter: single letters and numbers are no entries."""
    return len(key) >= 2 and any(c.isalpha() for c in key)


def build_profile(decisions: Iterable[Decision], lists: Iterable[ListEntry] = (),
                  corpus: CorpusStats | None = None, *,
                  learned: Mapping[str, Any] | None = None,
                  documents_reviewed: int = 0) -> Profile:
    accepted: dict[str, Counter[Label]] = {}
    accepted_patient: dict[str, set[str | None]] = {}
    rejected: set[tuple[str, Label, str]] = set()
    n_accepted = n_rejected = 0
    for d in decisions:
        key = normal_key(d.text)
        if d.accepted:
            n_accepted += 1
            if d.label in LABEL_KIND and _useful(key):
                accepted.setdefault(key, Counter())[d.label] += 1
                accepted_patient.setdefault(key, set()).add(
                    d.patient if d.label is Label.PATIENT else None)
        else:
            n_rejected += 1
            if d.label in FAMILIES and _useful(key):
                rejected.add((key, d.label, d.context))
    phi: list[PhiEntry] = []
    for key, labels in accepted.items():
        label = max(labels, key=lambda lab: (labels[lab], -_LABEL_ORDER.index(lab)))
        owners = accepted_patient[key]
        patient = next(iter(owners)) if len(owners) == 1 else None
        phi.append(PhiEntry(key, label, LABEL_KIND[label], EntrySource.REVIEW,
                            patient if label is Label.PATIENT else None))
    listed: set[str] = set()
    n_list = 0
    for entry in lists:
        key = normal_key(entry.text)
        if not _useful(key):
            continue
        n_list += 1
        listed.add(key)
        phi.append(PhiEntry(key, KIND_LABEL[entry.kind], entry.kind, EntrySource.LIST,
                            entry.patient))
    accepted_families = {(key, FAMILIES[lab]) for key, labels in accepted.items()
                         for lab in labels}
    vocabulary = [VocabEntry(key, label, EntrySource.REVIEW, context)
                  for key, label, context in rejected
                  if (key, FAMILIES[label]) not in accepted_families and key not in listed]
    phi_keys = set(accepted) | listed
    common: set[str] = set()
    dropped = 0
    if corpus is not None:
        vocabulary += [VocabEntry(word, Label.PATIENT, EntrySource.CORPUS, "plain")
                       for word in corpus.clinical() if word not in phi_keys]
        common = _common_words(phi, corpus)
        # An accepted span made only of the project's common words ("de la", "Provincia")
        # was accepted for overlapping PHI, not for being a name: no dictionary entry.
        kept = [e for e in phi if e.source is not EntrySource.REVIEW
                or not all(t in common or len(t) == 1 for t in _parts(e.text))]
        dropped, phi = len(phi) - len(kept), kept
    counts = {"decisions.accepted": n_accepted, "decisions.rejected": n_rejected,
              "documents.reviewed": documents_reviewed, "list.entries": n_list,
              "corpus.documents": corpus.documents if corpus is not None else 0,
              "review.common_only": dropped}
    return Profile(tuple(phi), tuple(vocabulary), dict(learned) if learned else None,
                   tuple(counts.items()), tuple(common))


def _parts(text: str) -> set[str]:
    """An entry's tokens, hyphenated ones also in parts (as the dictionary reads them)."""
    tokens = entry_tokens(text)
    return set(tokens) | {p for t in tokens for p in t.split("-") if p}


def _common_words(phi: Iterable[PhiEntry], corpus: CorpusStats) -> set[str]:
    """The entries' tokens that are common words here, and the project's plain words one
    edit from an entry token (never to be read as that token's near-miss)."""
    tokens = {t for e in phi for t in _parts(e.text)}
    common = {t for t in tokens if corpus.is_common(t)}
    index: dict[str, set[str]] = {}
    for token in tokens:
        if len(token) >= FUZZY_MIN_LENGTH and token not in common:
            for form in _deletions(token) | {token}:
                index.setdefault(form, set()).add(token)
    for word, n in corpus.plain.items():
        if n < CORPUS_MIN_PLAIN or len(word) < FUZZY_MIN_LENGTH - 1 or word in tokens:
            continue
        near = set(index.get(word, ()))
        for form in _deletions(word):
            near.update(index.get(form, ()))
        if any(Levenshtein.distance(word, t, score_cutoff=1) <= 1 for t in near):
            common.add(word)
    return common


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}
