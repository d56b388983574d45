"""Build DeidentifiedText values by hand (no dependency on engine.surrogates)."""

from __future__ import annotations

from engine.core.domain import DeidentifiedText, Document, Replacement, SurrogateMode
from engine.core.labels import Label


def deidentify(doc: Document, edits: list[tuple[int, int, str, Label]],
               ) -> DeidentifiedText:
    """Apply (start, end, new text, label) edits left to right, recording replacements."""
    out: list[str] = []
    reps: list[Replacement] = []
    cursor = pos = 0
    for n, (start, end, new, label) in enumerate(sorted(edits)):
        out.append(doc.text[cursor:start])
        pos += start - cursor
        reps.append(Replacement(f"s{n}", start, end, label, pos, pos + len(new)))
        out.append(new)
        pos += len(new)
        cursor = end
    out.append(doc.text[cursor:])
    return DeidentifiedText(doc.id, "".join(out), tuple(reps), SurrogateMode.SURROGATE)


def edit(doc: Document, needle: str, new: str, label: Label = Label.PATIENT,
         nth: int = 0) -> tuple[int, int, str, Label]:
    start = -1
    for _ in range(nth + 1):
        start = doc.text.index(needle, start + 1)
    return (start, start + len(needle), new, label)
