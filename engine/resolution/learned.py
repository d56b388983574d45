"""A learned resolver: a project's reviewed candidates decide its undecided ones.

A decider (``Resolver.settle``) over merged CANDIDATE spans: each span becomes a few dozen
hashed features (who proposed it and how sure it was, label and subtype, token shape and
casing, length, its own words, the word on either side, the section heading above it,
whether its words are English or clinical or in the name lists, whether the text around it
says it is a name), an L2 logistic regression gives P(a reviewer would accept it), and a
span below the threshold is dropped. The threshold is chosen by cross-validation over
reviewed documents (``engine.resolution.learned_training``) so that recall stays at least
0.99 there.

Recall first: a span that a safety rule protects (a date that parses, a checksum-validated
identifier) is never dropped, whatever the model says. The Resolver will also enforce
``engine.resolution.protect`` (PHI dictionary entries); ``protected`` below is the minimal
check this module keeps on its own.

Features are hashed with CRC-32 into fixed blocks, so the resolver needs no vocabulary: it
is its weights, its threshold and a few counts (``to_dict``, canonical and deterministic).
It holds no text: the hashes of neighbouring words cannot be read back.
"""

from __future__ import annotations

import bisect
import math
import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.core.domain import Document, Source, Span
from engine.core.labels import Label

FORMAT = "clearnote.learned-resolver"
FORMAT_VERSION = 1
# (name, buckets): the span's own features, then the context blocks. A few hundred buckets
# each: collisions cost a little accuracy, never a crash, and the model stays small.
BLOCKS: tuple[tuple[str, int], ...] = (("span", 1024), ("words", 512), ("left", 256),
                                       ("right", 256), ("section", 128))
DIMENSIONS = sum(n for _, n in BLOCKS)
_OFFSETS = {name: sum(n for _, n in BLOCKS[:i]) for i, (name, _) in enumerate(BLOCKS)}
_SIZES = dict(BLOCKS)
WEIGHT_DIGITS = 6  # weights are stored rounded, so a round trip is exact

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_TOKEN = re.compile(r"\w+|[^\w\s]")
_REPEAT = re.compile(r"(.)\1+")

Feature = tuple[int, float]


def _bucket(block: str, key: str) -> int:
    return _OFFSETS[block] + zlib.crc32(key.encode("utf-8")) % _SIZES[block]


def _strip_version(detector: str) -> str:
    return detector.split("@", 1)[0]


def token_shape(text: str) -> str:
    """"Xx Xx", "X. Xx-Xx", "d/d/d": character classes with repeats collapsed (16 at most)."""
    classes = "".join("d" if c.isdigit() else "X" if c.isupper() else "x" if c.isalpha()
                      else " " if c.isspace() else c for c in text)
    return _REPEAT.sub(r"\1", classes)[:16]


def casing(text: str) -> str:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return "none"
    if all(c.isupper() for c in letters):
        return "upper"
    if all(c.islower() for c in letters):
        return "lower"
    words = [w for w in _WORD.findall(text) if w[0].isalpha()]
    return "title" if words and all(w[0].isupper() for w in words) else "mixed"


@dataclass(frozen=True)
class _Lexicon:
    """The shipped word lists the features consult (loaded once)."""

    is_english: Callable[[str], bool]
    clinical: frozenset[str]
    first_names: frozenset[str]
    last_names: frozenset[str]
    name_context: Callable[[str, int, int], bool]


@lru_cache(maxsize=1)
def _lexicon() -> _Lexicon:
    from engine.detectors.dictionary.context import clinical_words, has_name_context, is_english
    from engine.detectors.dictionary.names import all_name_lists

    first, last = all_name_lists()
    return _Lexicon(is_english, clinical_words(), first, last, has_name_context)


def section_index(text: str) -> tuple[list[int], list[str]]:
    """Start offsets of heading lines ("PLAN:", "NEURO", "EVOLUCIÓN") and their headings, a
    heading being a short line that ends in ':' or is written in capitals."""
    starts: list[int] = []
    headings: list[str] = []
    at = 0
    for line in text.split("\n"):
        stripped = line.strip()
        if 2 <= len(stripped) <= 60 and (stripped.endswith(":") or (
                stripped.isupper() and sum(c.isalpha() for c in stripped) >= 3)):
            starts.append(at)
            headings.append(" ".join(stripped.rstrip(":").casefold().split()[:3]))
        at += len(line) + 1
    return starts, headings


def _neighbour(text: str, start: int, end: int, *, left: bool) -> str:
    """The word next to the span on its own line, lower-cased; a marker when there is none."""
    if left:
        line = text[max(0, start - 40):start].rsplit("\n", 1)[-1]
        words = _WORD.findall(line)
        if words:
            return words[-1].casefold()
        return "<bol>" if not line.strip() else f"<{line.strip()[-1:]}>"
    line = text[end:end + 40].split("\n", 1)[0]
    words = _WORD.findall(line)
    if words and line.lstrip()[:1].isalnum():
        return words[0].casefold()
    stripped = line.strip()
    return "<eol>" if not stripped else f"<{stripped[:1]}>"


def span_features(doc: Document, span: Span,
                  sections: tuple[list[int], list[str]] | None = None) -> list[Feature]:
    """The hashed features of one candidate span (index, value), in a fixed order."""
    lex = _lexicon()
    text = doc.text
    covered = text[span.start:span.end]
    label = span.label.value
    names = [_strip_version(d) for d in span.detectors] or ["<none>"]
    words = _WORD.findall(covered)
    keys = [f"label={label}", f"subtype={span.subtype}", f"source={span.source.value}",
            f"primary={names[0]}|{label}", f"ndet={min(len(names), 3)}",
            f"shape={token_shape(covered)}", f"case={casing(covered)}|{label}",
            f"ntok={min(len(_TOKEN.findall(covered)), 6)}", f"nchar={min(len(covered), 24) // 3}",
            f"conf={int(span.confidence * 10)}|{names[0]}"]
    keys += [f"det={n}" for n in sorted(set(names))]
    if len(names) > 1:
        keys.append("detset=" + "+".join(sorted(set(names))))
    folded = [w.casefold() for w in words]
    english = sum(lex.is_english(w) for w in folded if w.isalpha())
    keys += [f"english={'all' if words and english == len(words) else bool(english)}|{label}",
             f"clinical={any(w in lex.clinical for w in folded)}",
             f"first={any(w in lex.first_names for w in folded)}",
             f"last={any(w in lex.last_names for w in folded)}",
             f"digits={any(c.isdigit() for c in covered)}",
             f"namectx={lex.name_context(text, span.start, span.end)}|{label}"]
    features: list[Feature] = [(_bucket("span", key), 1.0) for key in keys]
    # The span's own words: what this project's reviewer keeps rejecting ("Ingreso").
    features += [(_bucket("words", word), 1.0) for word in sorted(set(folded[:4]))]
    features.append((_bucket("span", "confidence"), span.confidence))
    left = _neighbour(text, span.start, span.end, left=True)
    right = _neighbour(text, span.start, span.end, left=False)
    features += [(_bucket("left", left), 1.0), (_bucket("left", f"{left}|{label}"), 1.0),
                 (_bucket("right", right), 1.0), (_bucket("right", f"{right}|{label}"), 1.0)]
    starts, headings = sections if sections is not None else section_index(text)
    at = bisect.bisect_right(starts, span.start) - 1
    heading = headings[at] if at >= 0 else "<top>"
    features += [(_bucket("section", heading), 1.0),
                 (_bucket("section", f"{heading}|{label}"), 1.0)]
    return features


# Identifier subtypes whose rules check a checksum or a fixed structure.
_VALIDATED: dict[str, str] = {"SSN": "ssn", "SIN": "sin", "CREDIT_CARD": "luhn",
                              "IBAN": "iban", "PHN": "bc_phn", "HCN": "ontario_hcn"}


def protected(doc: Document, span: Span) -> bool:
    """Never dropped by a learned decision: a DATE with digits that parses as a date, an
    identifier that passes its checksum (PHI dictionary entries: ``engine.resolution.protect``,
    which the Resolver enforces). Words alone ("Ingreso" labelled DATE) are not protected."""
    covered = doc.text[span.start:span.end]
    if span.label is Label.DATE:
        from engine.resolution.measurements import looks_like_date

        return any(c.isdigit() for c in covered) and looks_like_date(doc.text, span.start,
                                                                     span.end)
    if span.label is Label.ID and span.source is Source.RULE and span.subtype in _VALIDATED:
        from engine.detectors.regex import validators

        check: Callable[[str], bool] = getattr(validators, _VALIDATED[span.subtype])
        return check(covered)
    return False


@dataclass(frozen=True)
class LearnedResolver:
    """Drops undecided candidates that the project's reviewer would have rejected."""

    weights: tuple[float, ...]
    bias: float
    threshold: float  # P(accept) below this: dropped (unless protected)
    # Counts about the training (no text): decisions, accepted, rejected, documents.
    trained_on: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        if len(self.weights) != DIMENSIONS:
            raise ValueError(f"a learned resolver needs {DIMENSIONS} weights, "
                             f"got {len(self.weights)}")
        if not 0.0 <= self.threshold <= 1.0:
            raise ValueError(f"threshold {self.threshold} outside [0, 1]")
        if not all(math.isfinite(w) for w in (*self.weights, self.bias)):
            raise ValueError("a learned resolver's weights must be finite numbers")
        object.__setattr__(self, "trained_on", tuple(sorted(self.trained_on)))

    def score(self, doc: Document, span: Span,
              sections: tuple[list[int], list[str]] | None = None) -> float:
        """P(a reviewer accepts ``span``)."""
        weights = self.weights
        z = self.bias + sum(weights[i] * v for i, v in span_features(doc, span, sections))
        return _sigmoid(z)

    def recover(self, doc: Document, spans: list[Span]) -> tuple[list[Span], list[Span]]:
        """Split candidates into (kept, dropped as what the reviewer rejects here)."""
        if not spans:
            return [], []
        sections = section_index(doc.text)
        kept: list[Span] = []
        dropped: list[Span] = []
        for span in spans:
            drop = self.score(doc, span, sections) < self.threshold and not protected(doc, span)
            (dropped if drop else kept).append(span)
        return kept, dropped

    def to_dict(self) -> dict[str, Any]:
        """Canonical form: sparse weights in index order, rounded numbers, sorted keys."""
        return {"format": FORMAT, "version": FORMAT_VERSION,
                "blocks": [[name, n] for name, n in BLOCKS],
                "bias": self.bias, "threshold": self.threshold,
                "weights": [[i, w] for i, w in enumerate(self.weights) if w != 0.0],
                "trained_on": dict(self.trained_on)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LearnedResolver:
        """Read ``to_dict`` output; a wrong format or version is a ValueError in words."""
        if data.get("format") != FORMAT:
            raise ValueError("not a learned resolver")
        if data.get("version") != FORMAT_VERSION:
            raise ValueError(f"learned resolver version {data.get('version')!r} is not "
                             f"supported (this ClearNote reads version {FORMAT_VERSION})")
        if [tuple(b) for b in data.get("blocks", ())] != list(BLOCKS):
            raise ValueError("the learned resolver was built with other feature blocks")
        weights = [0.0] * DIMENSIONS
        try:
            for index, value in data["weights"]:
                if not 0 <= int(index) < DIMENSIONS:
                    raise IndexError(index)
                weights[int(index)] = float(value)
            return cls(tuple(weights), float(data["bias"]), float(data["threshold"]),
                       tuple((str(k), int(v)) for k, v in data.get("trained_on", {}).items()))
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError("the learned resolver's weights are malformed") from exc

    @classmethod
    def from_arrays(cls, weights: Sequence[float], bias: float, threshold: float,
                    trained_on: Mapping[str, int]) -> LearnedResolver:
        """Rounded to ``WEIGHT_DIGITS`` significant digits: the stored form is the model."""
        return cls(tuple(_round(float(w)) for w in weights), _round(float(bias)),
                   _round(float(threshold)), tuple(trained_on.items()))


def _round(value: float) -> float:
    rounded = float(f"{value:.{WEIGHT_DIGITS}g}")
    return 0.0 if rounded == 0.0 else rounded  # no "-0.0" in the canonical form


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)
