"""The Surrogator: one left-to-right pass replacing PHI spans, recording where each landed."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace as dc_replace

from engine.core.context import RunContext
from engine.core.domain import (
    DeidentifiedText,
    Document,
    Replacement,
    Span,
    SpanStatus,
    SurrogateMode,
)
from engine.core.labels import NAME_LABELS, Label
from engine.core.policies import Policy
from engine.surrogates import context, keys
from engine.surrogates import identifiers as ids
from engine.surrogates.ages import age_number, age_surrogate
from engine.surrogates.coined import coined_name
from engine.surrogates.context import DocContext
from engine.surrogates.dates import shift_date
from engine.surrogates.fake import SeededFaker
from engine.surrogates.guard import Avoid
from engine.surrogates.mapping import InMemorySurrogateMap, SurrogateMap
from engine.surrogates.names import Gender, Kind, name_data, name_surrogate
from engine.surrogates.places import case_like, hospital, location
from engine.surrogates.sex import sex_surrogate
from engine.surrogates.web import web

ACTIVE = frozenset({SpanStatus.CANDIDATE, SpanStatus.ACCEPTED})
REDACT_CHAR = "█"
NAME_NAMESPACE = "NAME"  # name components are shared by PATIENT, DOCTOR and PERSON
_ATTEMPTS = 64
_RETRIES = 512  # keyed retries when the canonical surrogate collides in one document
_COIN_AFTER = 16  # then places are coined words, not Faker's (finite) cities and surnames
_BEFORE = 12  # characters of context before a name (for "Mr. [Smith]")


def tag(label: Label) -> str:
    return f"[{label.value}]"


def redact(original: str) -> str:
    """A block as long as the original; whitespace kept so the layout survives."""
    return "".join(ch if ch.isspace() else REDACT_CHAR for ch in original)


class _NameComponents:
    """names.Components bound to one patient and one document.

    A value's canonical surrogate is a pure function of (secret, patient, value): the first
    keyed draw that differs from the value itself. It is what the map stores, so the map's
    content never depends on the order documents are processed in. A document in which the
    canonical one would collide with an original uses the first keyed retry (HMAC key +
    attempt counter) that does not, without storing it.
    """

    def __init__(self, owner: Surrogator, patient: str, avoid: Avoid,
                 seen: frozenset[str] = frozenset()) -> None:
        self._owner = owner
        self._patient = patient
        self._avoid = avoid
        self._seen = seen

    def known(self, kind: Kind, key: str) -> bool:
        return self._owner.mapping.get(self._patient, NAME_NAMESPACE, f"{kind}:{key}") is not None

    def seen(self, word: str) -> bool:
        return word in self._seen

    def component(self, kind: Kind, key: str, gender: Gender) -> str:
        mapping = self._owner.mapping
        data = self._owner.names
        mkey = f"{kind}:{key}"
        if kind == "first" and gender is not None and data.gender_of(key) != gender:
            # The gender came from the document (a title, pronouns), not from the name:
            # it is part of the key, so the stored surrogate never depends on which
            # document was replaced first.
            mkey += f":{gender}"
        known = mapping.get(self._patient, NAME_NAMESPACE, mkey)
        if known is None:
            rng = self.rng(NAME_NAMESPACE, mkey)
            new = data.pick(kind, gender, rng)
            for _ in range(_ATTEMPTS):
                if new.casefold() != key:
                    break
                new = data.pick(kind, gender, rng)
            mapping.put(self._patient, NAME_NAMESPACE, mkey, new)
            # Read back: with a shared store another writer may have won.
            known = mapping.get(self._patient, NAME_NAMESPACE, mkey) or new
        if known.casefold() != key and self._avoid.ok_part(known):
            return known
        for attempt in range(1, _ATTEMPTS):
            new = data.pick(kind, gender, self.rng(NAME_NAMESPACE, mkey, f"retry:{attempt}"))
            if new.casefold() != key and self._avoid.ok_part(new):
                return new
        attempt = _ATTEMPTS
        while True:  # every listed name is an original here: coin one (always ends)
            new = coined_name(self.rng(NAME_NAMESPACE, mkey, f"retry:{attempt}"))
            if new.casefold() != key and self._avoid.ok_part(new):
                return new
            attempt += 1

    def rng(self, *parts: str) -> random.Random:
        return keys.rng_for(self._owner.secret, self._patient, *parts)


class Surrogator:
    """Replaces PHI spans with surrogates (or tags, or redaction blocks).

    Surrogates are consistent per (patient, label, normalised original) through ``mapping``
    and reproducible without it: every random choice is seeded by HMAC(secret, patient,
    label, original). Different secrets give independent surrogates.
    """

    def __init__(self, *, secret: bytes, policy: Policy,
                 mode: SurrogateMode = SurrogateMode.SURROGATE,
                 mapping: SurrogateMap | None = None, locale: str = "en_US") -> None:
        if not secret:
            raise ValueError("the surrogate secret must not be empty")
        self.secret = bytes(secret)
        self.policy = policy
        self.mode = SurrogateMode(mode)
        self.mapping: SurrogateMap = mapping if mapping is not None else InMemorySurrogateMap()
        self.locale = locale
        self.names = name_data(locale)
        self._faker = SeededFaker(locale)
        # Generation is read-then-write on the map: serialise it so two threads sharing
        # this Surrogator never invent two surrogates for one value.
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ public API

    def date_shift(self, patient: str = "default") -> int:
        """This patient's date shift in days (never 0)."""
        return keys.date_shift_days(self.secret, patient)

    def deidentify(self, doc: Document, spans: Sequence[Span], *,
                   patient: str = "default", avoid: Iterable[str] = (),
                   ctx: RunContext | None = None) -> DeidentifiedText:
        """Replace the active spans. No surrogate, nor any part of a name surrogate, equals
        an original string or word of this document or of ``avoid`` (pass the originals of
        the patient's other documents to extend the guarantee to the patient). ``ctx``'s
        cancel token is polled every few hundred spans (a long text has tens of thousands)."""
        active = sorted((s for s in spans if s.status in ACTIVE),
                        key=lambda s: (s.start, s.end))
        text = doc.text
        for prev, cur in zip(active, active[1:], strict=False):
            if cur.start < prev.end:
                raise ValueError(f"overlapping spans [{prev.start}, {prev.end}) and "
                                 f"[{cur.start}, {cur.end}): resolve overlaps first")
        if active and active[-1].end > len(text):
            raise ValueError(f"span [{active[-1].start}, {active[-1].end}) is outside the "
                             f"document ({len(text)} characters)")
        dctx = context.read(doc, active, also=avoid)
        out: list[str] = []
        size = 0
        pos = 0
        replacements: list[Replacement] = []
        for n, span in enumerate(active):
            if ctx is not None and not n & 0xFF:
                ctx.check()
            label = dctx.label(span)
            # One string, one label: the document's label decides both whether it is PHI
            # and how it is replaced.
            effective = span if label is span.label else dc_replace(span, label=label,
                                                                    subtype=None)
            if not (self.policy.is_phi(effective, text) or self.policy.is_phi(span, text)):
                continue
            new = self._replace(doc, effective, patient, dctx)
            gap = text[pos:span.start]
            out.append(gap)
            size += len(gap)
            out.append(new)
            replacements.append(Replacement(span.id, span.start, span.end, label,
                                            size, size + len(new), effective.subtype))
            size += len(new)
            pos = span.end
        out.append(text[pos:])
        return DeidentifiedText(doc.id, "".join(out), tuple(replacements), self.mode)

    def surrogate_for(self, doc: Document, span: Span, *, patient: str = "default",
                      others: Sequence[Span] = ()) -> str:
        """What ``span`` will read as in the output (itself, if the policy keeps it). Pass
        the document's other spans as ``others`` to get exactly what ``deidentify`` writes."""
        if span.end > len(doc.text):
            raise ValueError(f"span [{span.start}, {span.end}) is outside the document")
        if not self.policy.is_phi(span, doc.text):
            return doc.slice(span)
        active = [s for s in others if s.status in ACTIVE and s.id != span.id] + [span]
        ctx = context.read(doc, active)
        label = ctx.label(span)
        effective = span if label is span.label else dc_replace(span, label=label,
                                                                subtype=None)
        return self._replace(doc, effective, patient, ctx)

    # ------------------------------------------------------------------ dispatch

    def _replace(self, doc: Document, span: Span, patient: str, ctx: DocContext) -> str:
        original = doc.slice(span)
        if self.mode is SurrogateMode.TAG:
            return tag(span.label)
        if self.mode is SurrogateMode.REDACT:
            return redact(original)
        if not original.strip():
            return original  # nothing visible to replace
        with self._lock:
            return self._surrogate(doc, span, original, patient, ctx)

    def _surrogate(self, doc: Document, span: Span, original: str, patient: str,
                   ctx: DocContext) -> str:
        label = span.label
        avoid = ctx.avoid
        if label in NAME_LABELS:
            before = doc.text[max(0, span.start - _BEFORE):span.start]
            hint = ctx.gender(label, context.surname_key(original))
            return name_surrogate(original, before=before, data=self.names,
                                  src=_NameComponents(self, patient, avoid, ctx.name_words),
                                  gender_hint=hint)
        if label is Label.DATE:
            rng = keys.rng_for(self.secret, patient, label.value, keys.norm_text(original))
            return shift_date(original, self.date_shift(patient),
                              keep_years=self.policy.keep_years, rng=rng, locale=self.locale)
        if label is Label.AGE:
            # Keyed on the number alone: "45" and "45-year-old" get the same new age.
            found = age_number(original)
            rng = keys.rng_for(self.secret, patient, label.value,
                               str(found[0]) if found else keys.norm_text(original))
            return age_surrogate(original, age_over=self.policy.age_over, rng=rng,
                                 ok=avoid.ok)
        if label is Label.OTHER and span.subtype == "SEX":
            # Keyed on the patient alone, so each keeps one value, which may be the original:
            # a value that always changed would give the original away.
            return sex_surrogate(original, keys.rng_for(self.secret, patient, "SEX"))
        if label in (Label.ID, Label.PHONE):
            return self._formatted(original, span, patient, avoid)
        if label is Label.LOCATION and (ids.CA_POSTAL_RE.match(original.strip())
                                        or ids.ZIP_RE.match(original.strip())):
            return self._formatted(original, span, patient, avoid)
        return self._free_text(original, span, patient, ctx)

    # ------------------------------------------------------------------ families

    def _formatted(self, original: str, span: Span, patient: str, avoid: Avoid) -> str:
        """IDs, phones, postal codes: keyed on letters and digits only, stored without
        separators, and laid back over whatever format this occurrence has. The stored
        (canonical) value depends on the value alone; a document where it would collide
        gets a keyed retry instead."""
        label = span.label.value
        cc = ids.phone_country_digits(original) if span.label is Label.PHONE else 0
        alnum = keys.norm_id(original)
        key = alnum[cc:]
        gen = self._generator(span)

        def draw(rng: random.Random) -> str | None:
            for _ in range(_ATTEMPTS):
                new = gen(original, rng)
                canonical = keys.norm_id(new)[cc:]
                if canonical != key and len(canonical) == len(key):
                    return canonical
            return None

        known = self.mapping.get(patient, label, key)
        if known is None or len(known) != len(key):
            canonical = draw(keys.rng_for(self.secret, patient, label, key))
            if canonical is None:
                return tag(span.label)  # cannot vary (e.g. no digits or letters): fail closed
            self.mapping.put(patient, label, key, canonical)
            stored = self.mapping.get(patient, label, key)
            known = stored if stored is not None and len(stored) == len(key) else canonical
        new = ids.render_like(original, alnum[:cc] + known)
        attempt = 0
        while not avoid.ok(new):
            attempt += 1
            retry = draw(keys.rng_for(self.secret, patient, label, key, f"retry:{attempt}"))
            if attempt >= _RETRIES or retry is None:
                return tag(span.label)
            new = ids.render_like(original, alnum[:cc] + retry)
        return new

    def _free_text(self, original: str, span: Span, patient: str, ctx: DocContext) -> str:
        """Places, facilities, web addresses and other text: keyed case-insensitively."""
        label = span.label.value
        key = keys.norm_text(original)
        avoid = ctx.avoid
        known = self.mapping.get(patient, label, key)
        if known is None:
            rng = keys.rng_for(self.secret, patient, label, key)
            new = tag(span.label)
            for _ in range(_ATTEMPTS):
                candidate = self._generate_text(original, span, rng, patient, ctx)
                if keys.norm_text(candidate) != key:
                    new = candidate
                    break
            self.mapping.put(patient, label, key, new)
            known = self.mapping.get(patient, label, key) or new
        attempt = 0
        while not avoid.ok(known):
            attempt += 1
            if attempt >= _RETRIES:
                return tag(span.label)
            rng = keys.rng_for(self.secret, patient, label, key, f"retry:{attempt}")
            known = self._generate_text(original, span, rng, patient, ctx,
                                        coin=attempt > _COIN_AFTER)
            if keys.norm_text(known) == key:
                known = original  # rejected by avoid.ok on the next turn
        return self._recase(known, original, span.label)

    def _generator(self, span: Span) -> Callable[[str, random.Random], str]:
        if span.label is Label.PHONE:
            return ids.phone
        if span.label is Label.LOCATION:
            return lambda v, r: (ids.ca_postal(v, r) if ids.CA_POSTAL_RE.match(v.strip())
                                 else ids.shape_replace(v, r))
        subtype = span.subtype
        return lambda v, r: ids.identifier(v, subtype, r)

    def _generate_text(self, original: str, span: Span, rng: random.Random,
                       patient: str, ctx: DocContext, *, coin: bool = False) -> str:
        if span.label is Label.HOSPITAL:
            return hospital(original, self._faker, rng, self.locale, coin=coin)
        if span.label is Label.LOCATION:
            return location(original, span.subtype, self._faker, rng, self.locale, coin=coin)
        if span.label is Label.WEB:
            return web(original, span.subtype, self.names, self._faker, rng,
                       _NameComponents(self, patient, ctx.avoid, ctx.name_words))
        return ids.shape_replace(original, rng)  # OTHER: letters for letters, digits for digits

    @staticmethod
    def _recase(stored: str, original: str, label: Label) -> str:
        # The key is case-insensitive; "TORONTO" and "Toronto" share a surrogate but each
        # occurrence keeps its own case.
        if label is Label.WEB:
            return stored
        return case_like(stored, original)
