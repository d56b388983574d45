"""DOCX: body (paragraphs, tables, text boxes), headers, footers, footnotes, endnotes,
comments — PHI hides in all of them. Parts are read straight from the ZIP with a hardened
XML parser, so nothing is skipped because a high-level API does not expose it."""

from __future__ import annotations

import re
import zipfile
import zlib
from pathlib import Path

from lxml import etree

from engine.core.domain import Document
from engine.core.errors import CorruptDocumentError

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_W = f"{{{W}}}"
PART_SEPARATOR = "\n\n"
MAX_PART_BYTES = 200 * 1024 * 1024  # zip-bomb guard


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


def _part_text(xml: bytes) -> tuple[str, bool]:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False,
                             remove_comments=True)
    root = etree.fromstring(xml, parser)
    # Text boxes appear twice (mc:Choice and its mc:Fallback): read the Choice only.
    for fallback in root.iter(f"{{{MC}}}Fallback"):
        fallback.clear()
    lines: list[str] = []
    for p in root.iter(f"{_W}p"):
        lines.append(_paragraph_text(p))
    tracked = root.find(f".//{_W}delText") is not None
    return "\n".join(lines).strip("\n"), tracked


def load_docx(path: Path) -> Document:
    try:
        with zipfile.ZipFile(path) as zf:
            parts = text_parts(zf.namelist())
            texts: list[str] = []
            tracked = False
            for name in parts:
                info = zf.getinfo(name)
                if info.file_size > MAX_PART_BYTES:
                    raise CorruptDocumentError(path, f"DOCX part {name} is implausibly large")
                text, has_deleted = _part_text(zf.read(name))
                tracked = tracked or has_deleted
                if text.strip():
                    texts.append(text)
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
