"""DOCX: body (paragraphs, tables, text boxes), headers, footers, footnotes, endnotes,
comments — PHI hides in all of them. Parts are read straight from the ZIP with a hardened
XML parser, so nothing is skipped because a high-level API does not expose it."""

from __future__ import annotations

import re
import zipfile
import zlib
from pathlib import Path
from typing import IO

from lxml import etree

from engine.core.domain import Document
from engine.core.errors import CorruptDocumentError

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_W = f"{{{W}}}"
PART_SEPARATOR = "\n\n"
MAX_PART_BYTES = 200 * 1024 * 1024  # zip-bomb guard, per part (its header's size)
# The whole document's budget, all parts together (Budget). A 1,000-page report has some
# 40,000 paragraphs and 30 MB of XML.
MAX_DOCUMENT_XML_BYTES = 256 * 1024 * 1024
MAX_PARAGRAPHS = 250_000
MAX_TEXT_CHARS = 64 * 1024 * 1024  # as detection's own limit (engine.segments)


def _order(name: str) -> tuple[int, int, str]:
    kinds = ("word/document", "word/header", "word/footer", "word/footnotes",
             "word/endnotes", "word/comments")
    kind = next((i for i, k in enumerate(kinds) if name.startswith(k)), len(kinds))
    num = re.search(r"(\d+)\.xml$", name)
    return kind, int(num.group(1)) if num else 0, name


def text_parts(names: list[str]) -> list[str]:
    pattern = re.compile(r"^word/(document|header\d*|footer\d*|footnotes|endnotes|"
                         r"comments|commentsExtended)\.xml$")
    return sorted((n for n in names if pattern.match(n) and "commentsExtended" not in n),
                  key=_order)


def _paragraph_text(p: etree._Element) -> str:
    """A paragraph's own text; paragraphs nested inside it (text boxes) are read on their own."""
    out: list[str] = []

    def walk(el: etree._Element) -> None:
        for child in el:
            tag = child.tag
            if tag == f"{_W}p":
                continue
            if tag in (f"{_W}t", f"{_W}delText", f"{_W}instrText"):
                # Field instructions (instrText) can carry e-mail/URL targets: keep them.
                out.append(child.text or "")
            elif tag in (f"{_W}tab", f"{_W}ptab"):
                out.append("\t")
            elif tag in (f"{_W}br", f"{_W}cr"):
                out.append("\n")
            elif tag == f"{_W}noBreakHyphen":
                out.append("-")
            else:
                walk(child)

    walk(p)
    return "".join(out)


class Budget:
    """One allowance for the whole document, shared by every part (body, each header and
    footer, notes, comments): uncompressed XML bytes, paragraphs and characters of text.
    A part under the per-part guard can still hold millions of tiny paragraphs; past any
    bound the document is refused with a message instead of growing without end."""

    def __init__(self, max_bytes: int = MAX_DOCUMENT_XML_BYTES,
                 max_paragraphs: int = MAX_PARAGRAPHS) -> None:
        self.bytes_left, self.paragraphs_left = max_bytes, max_paragraphs
        self.max_bytes, self.max_paragraphs = max_bytes, max_paragraphs
        self.chars_left = MAX_TEXT_CHARS

    def read(self, n: int) -> None:
        self.bytes_left -= n
        if self.bytes_left < 0:
            raise TooLargeError(f"DOCX holds more than {self.max_bytes // 2**20} MB of XML "
                                "(the limit for one document)")

    def paragraph(self, text: str) -> str:
        self.paragraphs_left -= 1
        self.chars_left -= len(text) + 1
        if self.paragraphs_left < 0:
            raise TooLargeError(f"DOCX holds more than {self.max_paragraphs:,} paragraphs "
                                "(the limit for one document)")
        if self.chars_left < 0:
            raise TooLargeError(f"DOCX holds more than {MAX_TEXT_CHARS:,} characters of text "
                                "(the limit for one document)")
        return text


class TooLargeError(Exception):
    """Past the document's budget (turned into a CorruptDocumentError naming the file)."""


class _Counted:
    """A part's stream that charges every byte read to the budget."""

    def __init__(self, raw: IO[bytes], budget: Budget) -> None:
        self.raw, self.budget = raw, budget

    def read(self, n: int = -1) -> bytes:
        data = self.raw.read(n if n and n > 0 else 1 << 16)
        self.budget.read(len(data))
        return data


def _part_text(stream: IO[bytes], budget: Budget) -> tuple[str, bool]:
    """A part's paragraphs, parsed as a stream: each top-level paragraph (with the text
    boxes inside it) is read when it ends, then dropped, so memory holds one paragraph and
    the text, not the whole tree."""
    lines: list[str] = []
    tracked = False
    depth = fallback = 0  # open w:p and mc:Fallback elements
    events = etree.iterparse(_Counted(stream, budget), events=("start", "end"),
                             tag=(f"{_W}p", f"{{{MC}}}Fallback"), resolve_entities=False,
                             no_network=True, huge_tree=False, remove_comments=True)
    for event, el in events:
        if el.tag != f"{_W}p":
            fallback += 1 if event == "start" else -1
            continue
        if event == "start":
            depth += 1
            continue
        depth -= 1
        if depth:
            continue  # a paragraph inside another (text box): read with its outer one
        if not fallback:
            # Text boxes appear twice (mc:Choice and its mc:Fallback): read the Choice.
            for copy in el.iter(f"{{{MC}}}Fallback"):
                copy.clear()
            for p in el.iter(f"{_W}p"):
                lines.append(budget.paragraph(_paragraph_text(p)))
            tracked = tracked or el.find(f".//{_W}delText") is not None
        el.clear()
        _drop_read(el)
    return "\n".join(lines).strip("\n"), tracked


def _drop_read(el: etree._Element) -> None:
    """Remove everything before ``el`` and before each of its ancestors (all of it read):
    the emptied paragraphs, and the table rows and cells that held them."""
    node: etree._Element | None = el
    while node is not None and (parent := node.getparent()) is not None:
        while node.getprevious() is not None:
            del parent[0]
        node = parent


def load_docx(path: Path) -> Document:
    try:
        with zipfile.ZipFile(path) as zf:
            parts = text_parts(zf.namelist())
            texts: list[str] = []
            tracked = False
            budget = Budget()
            for name in parts:
                info = zf.getinfo(name)
                if info.file_size > MAX_PART_BYTES:
                    raise CorruptDocumentError(path, f"DOCX part {name} is implausibly large")
                with zf.open(name) as stream:
                    text, has_deleted = _part_text(stream, budget)
                tracked = tracked or has_deleted
                if text.strip():
                    texts.append(text)
    except TooLargeError as exc:
        raise CorruptDocumentError(path, str(exc)) from None
    except zipfile.BadZipFile as exc:
        raise CorruptDocumentError(path, "DOCX is damaged (bad ZIP container)") from exc
    except etree.XMLSyntaxError as exc:
        raise CorruptDocumentError(path, "DOCX is damaged (invalid XML)") from exc
    except (OSError, EOFError, zipfile.LargeZipFile, zlib.error, NotImplementedError,
            RuntimeError, ValueError) as exc:
        # zlib.error: a damaged deflate stream; NotImplementedError: an unknown compression
        # method; RuntimeError: an encrypted ZIP entry (found by fuzzing, issue 15).
        raise CorruptDocumentError(path, "DOCX is damaged or truncated") from exc
    warnings = ["tracked deletions were included in the text"] if tracked else []
    return Document(text=PART_SEPARATOR.join(texts), source_path=str(path),
                    media_type="application/vnd.openxmlformats-officedocument."
                               "wordprocessingml.document",
                    warnings=tuple(warnings))
