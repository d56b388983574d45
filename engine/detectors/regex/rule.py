"""Rules as data (``RegexRule``) and the one detector class that runs a family of them."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span
from engine.core.labels import Label, check_subtype
from engine.core.regex_cache import rule_patterns
from engine.detectors.base import DetectorSpec


@dataclass(frozen=True)
class RegexRule:
    """One pattern. ``group`` selects the part that is PHI (context words stay outside)."""

    name: str
    label: Label
    pattern: str
    confidence: float
    subtype: str | None = None
    group: int | str = 0
    validate: Callable[[str], bool] | None = None
    # False: the rule reads only the text as written, not the cased view of caseless lines.
    on_view: bool = True
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_subtype(self.label, self.subtype)
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"rule {self.name}: confidence outside [0, 1]")
        object.__setattr__(self, "regex", rule_patterns().compile(self.pattern))

    def find(self, text: str) -> Iterable[tuple[int, int]]:
        for match in self.regex.finditer(text):
            start, end = match.span(self.group)
            if start < 0 or start == end:
                continue
            if self.validate is not None and not self.validate(text[start:end]):
                continue
            yield start, end


class RuleDetector:
    """Runs one family of rules (``regex.date``, ``regex.phone``...)."""

    def __init__(self, id: str, rules: Iterable[RegexRule], *, version: int = 1,
                 description: str = "", cased_view: bool = False,
                 view_only: bool = False) -> None:
        self.rules = tuple(rules)
        # Rules that read capitals also run on a cased view of ALL CAPS / lower-case lines;
        # with ``view_only`` the view alone speaks for those lines.
        self.cased_view = cased_view
        self.view_only = view_only
        if not self.rules:
            raise ValueError(f"detector {id} has no rules")
        self.spec = DetectorSpec(id=id, version=version, source=Source.RULE,
                                 description=description)

    def detect(self, doc: Document, ctx: RunContext) -> list[Span]:
        best: dict[tuple[int, int, Label], tuple[float, str | None]] = {}
        text = doc.text
        self._find(text, best, ctx)
        if self.cased_view:
            from engine.detectors.regex.recase import cased_view, caseless_lines

            view = cased_view(text)
            if view is not None:
                found: dict[tuple[int, int, Label], tuple[float, str | None]] = {}
                self._find(view, found, ctx, view=True)
                lines = caseless_lines(text)

                def caseless(key: tuple[int, int, Label]) -> bool:
                    return any(a <= key[0] < b for a, b in lines)

                if self.view_only:  # "WEANED OFF 0100" in ALL CAPS is no "Finland 38524"
                    best = {key: value for key, value in best.items() if not caseless(key)}
                for key, value in found.items():
                    if key not in best and caseless(key):
                        best[key] = value
        return drop_contained([
            Span(start, end, label, source=Source.RULE, detector=self.spec.qualified,
                 confidence=conf, subtype=subtype)
            for (start, end, label), (conf, subtype) in best.items()])

    def _find(self, text: str, best: dict[tuple[int, int, Label], tuple[float, str | None]],
              ctx: RunContext, *, view: bool = False) -> None:
        for rule in self.rules:
            ctx.check()
            if view and not rule.on_view:
                continue
            for start, end in rule.find(text):
                key = (start, end, rule.label)
                held = best.get(key)
                # Same range twice: the more confident (usually context-specific) rule wins.
                if held is None or rule.confidence > held[0] or (
                        rule.confidence == held[0] and held[1] is None):
                    best[key] = (rule.confidence, rule.subtype)


def drop_contained(spans: list[Span]) -> list[Span]:
    """Remove spans strictly inside a longer span of the same label from the same family."""
    ordered = sorted(spans, key=lambda s: (s.start, -s.end))
    kept: list[Span] = []
    for span in ordered:
        if any(k.label is span.label and k.start <= span.start and span.end <= k.end
               for k in kept[-8:]):
            continue
        kept.append(span)
    return kept
