"""Colours and review styles. Colour is never the only signal: every status also has an
underline/strike style and a glyph, every label a written name."""

from __future__ import annotations

from PySide6.QtGui import QColor, QTextCharFormat

from engine.core.domain import SpanStatus
from engine.core.labels import LABEL_COLOURS, Label

STATUS_GLYPHS: dict[SpanStatus, str] = {
    SpanStatus.CANDIDATE: "?",
    SpanStatus.ACCEPTED: "✓",
    SpanStatus.REJECTED: "✗",
    SpanStatus.SUPERSEDED: "–",
}

STATUS_HELP: dict[SpanStatus, str] = {
    SpanStatus.CANDIDATE: "candidate: dotted underline, light fill — not yet decided",
    SpanStatus.ACCEPTED: "accepted: solid fill and underline — will be replaced",
    SpanStatus.REJECTED: "rejected: struck through, no fill — stays as written",
    SpanStatus.SUPERSEDED: "superseded: lost an overlap — not shown in the text",
}

SEVERITY_COLOURS: dict[str, str] = {"high": "#C0392B", "medium": "#D68910", "low": "#7F8C8D"}
SEVERITY_GLYPHS: dict[str, str] = {"high": "▲▲", "medium": "▲", "low": "△"}


def label_colour(label: Label | str) -> QColor:
    return QColor(LABEL_COLOURS.get(Label(label), "#888888"))


def span_format(label: Label, status: SpanStatus, *, current: bool = False) -> QTextCharFormat:
    """Text format of one span in the review text."""
    colour = label_colour(label)
    fmt = QTextCharFormat()
    if status is SpanStatus.CANDIDATE:
        fill = QColor(colour)
        fill.setAlpha(45)
        fmt.setBackground(fill)
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
        fmt.setUnderlineColor(colour.darker(130))
    elif status is SpanStatus.ACCEPTED:
        fill = QColor(colour)
        fill.setAlpha(175)
        fmt.setBackground(fill)
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        fmt.setUnderlineColor(colour.darker(160))
    elif status is SpanStatus.REJECTED:
        fmt.setFontStrikeOut(True)
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
        fmt.setUnderlineColor(QColor("#777777"))
    if current:
        # The focused span: bold with a dark outline colour, visible in any palette.
        fmt.setFontWeight(700)
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        fmt.setUnderlineColor(QColor("#000000"))
        if status is SpanStatus.REJECTED:
            fmt.setBackground(QColor(0, 0, 0, 30))
    return fmt
