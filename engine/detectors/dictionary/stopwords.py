"""Words that are also names or places but, in clinical prose, are usually just words."""

from __future__ import annotations

from functools import lru_cache

from engine.paths import resource

# Faker's en_US lorem word list, copied by build_resources: importing Faker to read it cost
# every process a fifth of a second (faker.config scans all its locales on import).
LOREM_FILE = ("dictionaries", "lorem_words.txt")


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """Common English words (Faker's lorem list, shipped as a copy) plus the stop list."""
    return read_word_list(LOREM_FILE[-1]) | read_word_list("stopwords.txt")


def faker_lorem_words() -> frozenset[str]:
    """What build_resources copies into LOREM_FILE (needs Faker: a development step)."""
    from faker.providers.lorem.en_US import Provider as Lorem

    return frozenset(w.casefold() for w in Lorem.word_list)


def read_word_list(name: str) -> frozenset[str]:
    path = resource("dictionaries", name)
    out: set[str] = set()
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            line = line.split("#", 1)[0].strip()
            if line:
                out.add(line.casefold())
    return frozenset(out)
