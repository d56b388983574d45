"""The surrogate step polls the cancel token, and the collision guard (one PhraseSet for
all originals) still refuses any candidate that contains an original phrase."""

from __future__ import annotations

import pytest

from engine.core.context import RunContext
from engine.core.domain import Document, Span
from engine.core.errors import CancelledError
from engine.core.labels import Label
from engine.core.policies import get_policy
from engine.surrogates import Surrogator
from engine.surrogates.guard import Avoid


def test_guard_refuses_originals_word_bounded() -> None:
    avoid = Avoid(["Emily Stone", "Port Hope", "x", "O'Brien"], words=["Emily"])
    assert not avoid.ok("Dr. emily   STONE")
    assert not avoid.ok("near Port Hope today")
    assert not avoid.ok("Mary O'Brien")
    assert avoid.ok("Stonewall Emilyson") and avoid.ok("x-ray")  # word-bounded; "x" too short
    assert not avoid.ok_part("Emily") and avoid.ok_part("Clara")
    assert "Emily" not in repr(avoid)


def test_deidentify_polls_the_cancel_token() -> None:
    text = "Seen by Dr. Brown. " * 600
    doc = Document.from_text(text, id="d")
    spans = [Span(i * 19 + 12, i * 19 + 17, Label.DOCTOR) for i in range(600)]
    ctx = RunContext()
    ctx.cancel.cancel()
    surrogator = Surrogator(secret=b"k" * 32, policy=get_policy("strict"))
    with pytest.raises(CancelledError):
        surrogator.deidentify(doc, spans, ctx=ctx)
    assert surrogator.deidentify(doc, spans, ctx=RunContext()).text.count("Brown") == 0
