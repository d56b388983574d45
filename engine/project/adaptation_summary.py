"""What a front end shows about learning (issue 25): whether there is new review to learn
from, what re-checking would touch, and how many places each learned entry matches.

Counts only: nothing here logs or returns an entry's text except to the caller that asked
for the entries themselves (the desktop's "What ClearNote learned" panel).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import ColumnElement, func, select

from engine.core.context import RunContext
from engine.profile import PhiEntry, VocabEntry, normal_key
from engine.project.state import ProjectState
from engine.store import profiles
from engine.store.models import ContentRow, DocumentRow, SpanRow

# Words as notes write them: letters/digits joined by apostrophes or hyphens ("o'brien",
# "kessler-4b"); a period or comma between words is not part of the entry's key.
_WORD = re.compile(r"\w+(?:['\-]\w+)*")
MAX_ENTRY_WORDS = 8  # longer entries are not counted (no list or review entry is this long)


@dataclass(frozen=True)
class LearningSummary:
    """Counts for the "learn from your review" offer."""

    decisions: int  # review decisions in the project now
    learned_decisions: int  # decisions the active profile was built from (0: none)
    version: int | None  # the active profile version
    versions: int  # versions kept (0: the project never learned)
    unreviewed: int  # documents without any decision (what re-checking may change)
    stale: int  # documents to detect again with the active profile (or with none)

    @property
    def new_decisions(self) -> int:
        return max(0, self.decisions - self.learned_decisions)


def summary(state: ProjectState, decided: ColumnElement[bool], stale: list[str]) -> LearningSummary:
    """``decided``: the SQL condition for a span carrying a review decision."""
    profile = state.profile
    learned = (profile.count("decisions.accepted") + profile.count("decisions.rejected")
               if profile is not None else 0)
    with state.db.read() as s:
        decisions = s.scalar(select(func.count()).select_from(SpanRow).where(decided)) or 0
        reviewed = s.scalar(select(func.count(func.distinct(SpanRow.document_id)))
                            .where(decided)) or 0
        documents = s.scalar(select(func.count()).select_from(DocumentRow)) or 0
        version = profiles.active_version(s)
        kept = len(profiles.versions(s))
    return LearningSummary(int(decisions), learned, version, kept,
                           max(0, int(documents) - int(reviewed)), len(stale))


def match_key(text: str) -> str:
    """An entry's or a phrase's words, compared the way entries are (``normal_key``)."""
    return " ".join(_WORD.findall(normal_key(text)))


def entry_matches(state: ProjectState, decided: ColumnElement[bool],
                  entries: Iterable[PhiEntry | VocabEntry],
                  ctx: RunContext | None = None) -> dict[PhiEntry | VocabEntry, int]:
    """How many places in the documents nobody reviewed each entry matches (the spans it
    finds or stops marking on the next re-check; reviewed documents never change).

    One pass over each text: only word runs that start with an entry's first word are
    joined and looked up, so the cost grows with the text, not with the number of entries.
    A vocabulary entry learned in name context is counted wherever its words appear (an
    upper bound)."""
    ctx = ctx or RunContext()
    entries = list(entries)
    keys: dict[str, list[PhiEntry | VocabEntry]] = {}
    for entry in entries:
        key = match_key(entry.text)
        if key and key.count(" ") < MAX_ENTRY_WORDS:
            keys.setdefault(key, []).append(entry)
    firsts: dict[str, int] = {}  # first word -> the longest entry starting with it, in words
    for key in keys:
        words = key.split(" ")
        firsts[words[0]] = max(firsts.get(words[0], 0), len(words))
    found: Counter[str] = Counter()
    with state.db.read() as s:
        reviewed = select(SpanRow.document_id).where(decided)
        rows = s.execute(select(ContentRow.text)
                         .where(ContentRow.document_id.not_in(reviewed))).scalars()
        for text in rows:
            ctx.check()
            words = _WORD.findall(text.casefold().replace("’", "'"))
            for i, word in enumerate(words):
                base = word[:-2] if word.endswith("'s") else word  # "haldane's" alone
                longest = max(firsts.get(word, 0), firsts.get(base, 0))
                for n in range(1, longest + 1):
                    phrase = " ".join(words[i:i + n])
                    if phrase.endswith("'s"):  # a possessive counts as its name
                        phrase = phrase[:-2]
                    if phrase in keys:
                        found[phrase] += 1
    counted = {entry: found[key] for key, group in keys.items() for entry in group}
    return {entry: counted.get(entry, 0) for entry in entries}
