"""Label colours and status styles, always written out (colour is never the only cue)."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import QLabel, QWidget

from desktop.theme import LABEL_COLOURS, STATUS_GLYPHS, STATUS_HELP, label_colour, text_on
from engine.core.domain import SpanStatus
from engine.core.labels import Label


class LegendWidget(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(self.textFormat().RichText)
        chips = " ".join(
            f'<span style="background-color:{colour}; color:{chip_text(label)};">'
            f'&nbsp;{label.value}&nbsp;</span>'
            for label, colour in LABEL_COLOURS.items())
        styles = (
            '<span style="text-decoration: underline dotted;">? candidate</span> &nbsp; '
            '<span style="text-decoration: underline;"><b>✓ accepted</b></span> &nbsp; '
            '<s>✗ rejected</s>')
        self.setText(f"{chips}<br/>{styles}")
        self.setToolTip("\n".join(f"{STATUS_GLYPHS[s]} {STATUS_HELP[s]}" for s in SpanStatus))
        self.setAccessibleName("Legend: label colours and review states")


def chip_text(label: Label) -> str:
    """The text colour of a label's chip: black or white, whichever contrasts more."""
    return str(text_on(label_colour(label)).name())


def plain(html: str) -> str:
    doc = QTextDocument()
    doc.setHtml(html)
    return doc.toPlainText()


__all__ = ["LegendWidget", "QTextCursor", "plain"]
