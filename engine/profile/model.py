"""The profile's frozen types and their one JSON form.

Canonical JSON: keys sorted, entries sorted, no whitespace, UTF-8. The same content always
gives the same bytes, and ``content_version`` (a digest of those bytes) names a content; the
project numbers the versions it keeps. ``schema`` is the format of the JSON itself.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from engine.core.errors import InputError
from engine.core.labels import Label

SCHEMA_VERSION = 1
# Near-misses (OCR) are read for tokens of at least this many characters (one edit).
FUZZY_MIN_LENGTH = 5


class PhiKind(StrEnum):
    PATIENT = "patient"
    STAFF = "staff"
    RELATIVE = "relative"
    PLACE = "place"
    WARD = "ward"
    HOSPITAL = "hospital"


# The label a dictionary hit of each kind gets, and the kind a reviewed label teaches.
KIND_LABEL: dict[PhiKind, Label] = {
    PhiKind.PATIENT: Label.PATIENT, PhiKind.STAFF: Label.DOCTOR,
    PhiKind.RELATIVE: Label.PERSON, PhiKind.PLACE: Label.LOCATION,
    PhiKind.WARD: Label.HOSPITAL, PhiKind.HOSPITAL: Label.HOSPITAL,
}
LABEL_KIND: dict[Label, PhiKind] = {
    Label.PATIENT: PhiKind.PATIENT, Label.DOCTOR: PhiKind.STAFF,
    Label.PERSON: PhiKind.RELATIVE, Label.LOCATION: PhiKind.PLACE,
    Label.HOSPITAL: PhiKind.HOSPITAL,
}
PERSON_KINDS = frozenset({PhiKind.PATIENT, PhiKind.STAFF, PhiKind.RELATIVE})


class EntrySource(StrEnum):
    REVIEW = "review"
    LIST = "list"
    CORPUS = "corpus"


# Dictionary tokens: letters and digits (OCR writes "Sm1th"), inner apostrophes and hyphens
# before a letter ("Mary-Anne"; "Kessler-4B" is a ward and its number).
TOKEN = re.compile(r"[^\W_]+(?:['’\-][^\W\d_][^\W_]*)*")


def entry_tokens(text: str) -> tuple[str, ...]:
    """The case-folded tokens of a text as the local dictionary compares them."""
    return tuple(m.group().casefold().replace("’", "'") for m in TOKEN.finditer(text))


def normal_key(text: str) -> str:
    """How entries are compared: case-folded, one space, straight apostrophe, no possessive."""
    key = " ".join(text.casefold().replace("’", "'").split())
    return key[:-2] if key.endswith("'s") else key


@dataclass(frozen=True)
class PhiEntry:
    """A piece of this institution's PHI: found wherever a note writes it."""

    text: str
    label: Label
    kind: PhiKind
    source: EntrySource
    patient: str | None = None  # the patient (surrogate scope) a list tied it to

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "label": self.label.value, "kind": self.kind.value,
                "source": self.source.value, "patient": self.patient}


@dataclass(frozen=True)
class VocabEntry:
    """A word or phrase that is clinical language here, not PHI, in a kind of context:
    ``label`` is what it was mistaken for, ``context`` "plain" or "name" (a title, cue or
    initial beside it: engine.detectors.dictionary.context.has_name_context)."""

    text: str
    label: Label
    source: EntrySource
    context: str = "plain"

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "label": self.label.value, "source": self.source.value,
                "context": self.context}


def entry_order(entry: PhiEntry | VocabEntry) -> tuple[str, ...]:
    """The canonical order of entries (every field, None as "")."""
    return tuple(str(v) if v is not None else "" for v in entry.to_json().values())


@dataclass(frozen=True)
class Profile:
    phi: tuple[PhiEntry, ...] = ()
    vocabulary: tuple[VocabEntry, ...] = ()
    # The learned resolver as its ``to_dict()`` (engine.resolution.learned), or None.
    learned: dict[str, Any] | None = field(default=None, hash=False)
    counts: tuple[tuple[str, int], ...] = ()  # decisions used, documents, entries...
    # Words this project writes everywhere or as plain lower-case words, among the entries'
    # tokens and their one-edit neighbours: no one's name by themselves (engine.profile.build).
    common: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Canonical order whatever the caller passed: equal content, equal objects and bytes.
        object.__setattr__(self, "phi", tuple(sorted(set(self.phi), key=entry_order)))
        object.__setattr__(self, "vocabulary", tuple(sorted(set(self.vocabulary), key=entry_order)))
        object.__setattr__(self, "counts", tuple(sorted(self.counts)))
        object.__setattr__(self, "common", tuple(sorted(set(self.common))))

    @property
    def schema(self) -> int:
        return SCHEMA_VERSION

    @property
    def empty(self) -> bool:
        return not self.phi and not self.vocabulary and self.learned is None

    def count(self, name: str) -> int:
        return dict(self.counts).get(name, 0)

    def to_json(self) -> dict[str, Any]:
        return {"schema": SCHEMA_VERSION, "phi": [e.to_json() for e in self.phi],
                "vocabulary": [e.to_json() for e in self.vocabulary],
                "learned": self.learned, "counts": dict(self.counts),
                "common": list(self.common)}

    def to_bytes(self) -> bytes:
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False, allow_nan=False).encode("utf-8")

    @property
    def content_version(self) -> str:
        """A digest of the canonical bytes: the same content, the same version."""
        return hashlib.sha256(self.to_bytes()).hexdigest()[:16]

    @classmethod
    def from_bytes(cls, raw: bytes, *, where: str = "profile") -> Profile:
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise InputError(where, "not a ClearNote profile (unreadable JSON)") from None
        return cls.from_json(data, where=where)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, where: str = "profile") -> Profile:
        if not isinstance(data, Mapping) or data.get("schema") != SCHEMA_VERSION:
            schema = data.get("schema") if isinstance(data, Mapping) else None
            raise InputError(where, f"profile schema {schema!r} is not one this version "
                                    f"reads ({SCHEMA_VERSION})")
        try:
            phi = tuple(PhiEntry(str(e["text"]), Label(e["label"]), PhiKind(e["kind"]),
                                 EntrySource(e["source"]), e.get("patient"))
                        for e in data.get("phi", ()))
            vocab = tuple(VocabEntry(str(e["text"]), Label(e["label"]),
                                     EntrySource(e["source"]), str(e.get("context", "plain")))
                          for e in data.get("vocabulary", ()))
            counts = tuple((str(k), int(v)) for k, v in dict(data.get("counts", {})).items())
            common = tuple(str(w) for w in data.get("common", ()))
        except (KeyError, TypeError, ValueError):
            raise InputError(where, "a profile entry is malformed") from None
        learned = data.get("learned")
        if learned is not None and not isinstance(learned, dict):
            raise InputError(where, "the profile's learned resolver is malformed")
        return cls(phi, vocab, learned, counts, common)

    # --------------------------------------------------------------- editing (new objects)

    def without(self, entries: Iterable[PhiEntry | VocabEntry]) -> Profile:
        """This profile less ``entries`` (a person removed them): a new content."""
        gone = set(entries)
        return replace(self, phi=tuple(e for e in self.phi if e not in gone),
                       vocabulary=tuple(e for e in self.vocabulary if e not in gone))

    def with_learned(self, learned: dict[str, Any] | None) -> Profile:
        return replace(self, learned=learned)

    def phi_terms(self) -> frozenset[str]:
        """Normalised texts of the PHI dictionary (what a learned recoverer never drops)."""
        return frozenset(normal_key(e.text) for e in self.phi)

    def counts_by_kind(self) -> dict[str, int]:
        """Entries by kind, for reports: "phi.patient", "vocabulary.review"... (no text)."""
        out: dict[str, int] = {}
        for e in self.phi:
            out[f"phi.{e.kind.value}"] = out.get(f"phi.{e.kind.value}", 0) + 1
        for v in self.vocabulary:
            key = f"vocabulary.{v.source.value}"
            out[key] = out.get(key, 0) + 1
        return dict(sorted(out.items()))
