"""Words that are also names or places but, in clinical prose, are usually just words."""

from __future__ import annotations

from functools import lru_cache

from engine.paths import resource


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """Common English words (Faker's packaged lorem list) plus the curated stop list."""
    from faker.providers.lorem.en_US import Provider as Lorem

    words = {w.casefold() for w in Lorem.word_list}
    words |= read_word_list("stopwords.txt")
    return frozenset(words)


def read_word_list(name: str) -> frozenset[str]:
    path = resource("dictionaries", name)
    out: set[str] = set()
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            line = line.split("#", 1)[0].strip()
            if line:
                out.add(line.casefold())
    return frozenset(out)
