"""Plain text in any common encoding; never crashes on odd bytes.

Order of evidence: a byte-order mark; the NUL-byte pattern of UTF-16/32 without one; strict
UTF-8; then cp1252 for 8-bit Western text (latin-1 letters read the same, and Windows
punctuation such as ’ and € as well) unless the bytes clearly say otherwise, when
charset-normalizer guesses. A guess, or any byte that had to be replaced, is marked on the
Document (``needs_review``) with a warning the front ends show.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

from engine.core.domain import Document

_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe\x00\x00", "utf-32"),  # before UTF-16 LE: same first two bytes
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)
_SAMPLE = 8192  # bytes looked at for the NUL pattern
# Western punctuation that cp1252 puts in 0x80-0xBF and that sits between letters in real
# text (don’t, l’hôpital, Saint·Jean); any other symbol between two letters is a sign of a
# different 8-bit code page (Polish cp1250 "ł" reads as "³" in cp1252).
_INWORD_OK = frozenset("’‘'·-–\u00ad")
_EVIDENCE = 200_000


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    certain: bool  # False: a guess, or bytes were replaced
    replaced: bool = False


def wide_encoding(head: bytes) -> str | None:
    """UTF-16/32 (LE or BE) from a BOM or from where the NUL bytes fall, else None.

    Western text in UTF-16 has a NUL in every other byte (the high byte of ASCII and latin-1
    letters); UTF-32 has three in every four. A stray NUL elsewhere is not a pattern."""
    for bom, enc in _BOMS[1:]:
        if head.startswith(bom):
            return enc
    sample = head[:_SAMPLE]
    n = len(sample) - len(sample) % 4
    if n < 8 or sample.count(0) < n // 4:
        return None
    zeros = [sample[r:n:4].count(0) / (n // 4) for r in range(4)]
    if zeros[1] > 0.9 and zeros[2] > 0.9 and zeros[3] > 0.9 and zeros[0] < 0.5:
        return "utf-32-le"
    if zeros[0] > 0.9 and zeros[1] > 0.9 and zeros[2] > 0.9 and zeros[3] < 0.5:
        return "utf-32-be"
    odd, even = (zeros[1] + zeros[3]) / 2, (zeros[0] + zeros[2]) / 2
    if odd > 0.6 and even < 0.1:
        return "utf-16-le"
    if even > 0.6 and odd < 0.1:
        return "utf-16-be"
    return None


def _looks_western(text: str) -> bool:
    """cp1252-decoded text reads as a Western language: accented letters are a minority of
    the letters (not Cyrillic or Greek read through the wrong table) and no odd symbol sits
    inside a word. The first _EVIDENCE characters are plenty to tell."""
    text = text[:_EVIDENCE]
    letters = high_letters = inside = high = 0
    prev_alpha = False
    for i, ch in enumerate(text):
        alpha = ch.isalpha()
        if alpha:
            letters += 1
        if ord(ch) < 0x80:
            prev_alpha = alpha
            continue
        high += 1
        if alpha:
            high_letters += 1
        elif (ch not in _INWORD_OK and prev_alpha and i + 1 < len(text)
              and text[i + 1].isalpha()):
            inside += 1
        elif unicodedata.category(ch) == "Cc":  # C1 controls: no Western text has them
            return False
        prev_alpha = alpha
    if high == 0:
        return True
    return high_letters <= 0.4 * max(letters, 1) and inside <= max(1, high // 20)


def decode_bytes(data: bytes) -> Decoded:
    """Decode ``data`` by the order of evidence above. Undecodable bytes become U+FFFD."""
    for bom, enc in _BOMS:
        if data.startswith(bom):
            return _decode(data, enc, certain=True)
    wide = wide_encoding(data)
    if wide is not None:
        return _decode(data, wide, certain=True)
    try:
        return Decoded(data.decode("utf-8"), "utf-8", certain=True)
    except UnicodeDecodeError:
        pass
    if b"\x00" not in data:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:  # 0x81, 0x8D, 0x8F, 0x90, 0x9D: not cp1252
            text = ""
        if text and _looks_western(text):
            return Decoded(text, "cp1252", certain=True)
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is not None and best.encoding:
        return _decode(data, best.encoding, certain=False)
    return _decode(data, "cp1252", certain=False)


def _decode(data: bytes, encoding: str, *, certain: bool) -> Decoded:
    try:
        return Decoded(data.decode(encoding), encoding, certain=certain)
    except UnicodeDecodeError:
        return Decoded(data.decode(encoding, errors="replace"), encoding, certain=False,
                       replaced=True)


def normalize_newlines(text: str) -> tuple[str, list[int]]:
    """CRLF/CR → LF. Returns (text, offsets) where offsets[i] is the index in the input of
    output char i (plus a final entry for the end), so spans can map back to the source."""
    if "\r" not in text:
        return text, list(range(len(text) + 1))
    out: list[str] = []
    offsets: list[int] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\r":
            out.append("\n")
            offsets.append(i)
            i += 2 if i + 1 < n and text[i + 1] == "\n" else 1
            continue
        out.append(ch)
        offsets.append(i)
        i += 1
    offsets.append(n)
    return "".join(out), offsets


def load_text(path: Path, data: bytes, *, media_type: str = "text/plain") -> Document:
    decoded = decode_bytes(data)
    # The same result as normalize_newlines, without an offset list as long as the text.
    text = decoded.text.replace("\r\n", "\n").replace("\r", "\n")
    replaced = decoded.replaced
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
        replaced = True
    warnings: list[str] = []
    if decoded.encoding not in ("utf-8", "utf-8-sig", "ascii"):
        guess = "" if decoded.certain else " (a guess: check that accented letters are right)"
        warnings.append(f"text decoded as {decoded.encoding}{guess}")
    if replaced:
        warnings.append("some bytes could not be decoded and were replaced")
    return Document(text=text, source_path=str(path), media_type=media_type,
                    warnings=tuple(warnings),
                    needs_review=replaced or not decoded.certain)
