"""Colours and review styles. Colour is never the only signal: every status also has an
underline/strike style and a glyph, every label a written name."""

from __future__ import annotations

from PySide6.QtGui import QColor, QIcon, QPixmap, QTextCharFormat

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


def relative_luminance(colour: QColor) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return (0.2126 * lin(colour.redF()) + 0.7152 * lin(colour.greenF())
            + 0.0722 * lin(colour.blueF()))


def contrast_ratio(a: QColor, b: QColor) -> float:
    """WCAG 2 contrast ratio (1 to 21; 4.5 is the minimum for text)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_on(background: QColor) -> QColor:
    """Black or white, whichever reads better on ``background`` (always >= 4.58:1)."""
    black, white = QColor("#000000"), QColor("#FFFFFF")
    return black if contrast_ratio(black, background) >= contrast_ratio(white, background) \
        else white


def label_icon(label: Label) -> QIcon:
    pix = QPixmap(12, 12)
    pix.fill(label_colour(label))
    return QIcon(pix)


def span_format(label: Label, status: SpanStatus, *, current: bool = False,
                marker: QColor | None = None) -> QTextCharFormat:
    """Text format of one span in the review text. Accepted spans are filled with the
    label's colour and written in the colour that reads on it; ``marker`` (the palette's
    text colour) outlines the current span, so it shows on light and dark palettes."""
    colour = label_colour(label)
    fmt = QTextCharFormat()
    if status is SpanStatus.CANDIDATE:
        fill = QColor(colour)
        fill.setAlpha(45)
        fmt.setBackground(fill)
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
        fmt.setUnderlineColor(colour.darker(130))
    elif status is SpanStatus.ACCEPTED:
        fmt.setBackground(colour)
        fmt.setForeground(text_on(colour))
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
        fmt.setUnderlineColor(colour.darker(160))
    elif status is SpanStatus.REJECTED:
        fmt.setFontStrikeOut(True)
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
        fmt.setUnderlineColor(QColor("#777777"))
    if current:
        # The focused span: bold, a wave underline in the palette's text colour and a
        # tint of it behind (black on a light palette, near-white on a dark one).
        ink = QColor(marker or QColor("#000000"))
        fmt.setFontWeight(700)
        fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        fmt.setUnderlineColor(ink)
        if status is not SpanStatus.ACCEPTED:
            tint = QColor(ink)
            tint.setAlpha(90)  # text on it keeps >= 4.5:1 on both palettes
            fmt.setBackground(tint)
    return fmt
