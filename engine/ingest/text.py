"""Plain text in any common encoding; never crashes on odd bytes."""

from __future__ import annotations

from pathlib import Path

from engine.core.domain import Document

# Encodings tried in order before asking charset-normalizer (cheap and exact when they fit).
_STRICT_FIRST = ("utf-8",)


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Decode ``data``; returns (text, encoding name). Undecodable bytes become U+FFFD."""
    for bom, enc in ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe\x00\x00", "utf-32"),
                     (b"\x00\x00\xfe\xff", "utf-32"), (b"\xff\xfe", "utf-16"),
                     (b"\xfe\xff", "utf-16")):
        if data.startswith(bom):
            return data.decode(enc, errors="replace"), enc
    for enc in _STRICT_FIRST:
        try:
            return data.decode(enc), enc
        except UnicodeDecodeError:
            pass
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is not None and best.encoding:
        return data.decode(best.encoding, errors="replace"), best.encoding
    # Latin-1 maps every byte: a readable last resort, never a crash.
    return data.decode("cp1252", errors="replace"), "cp1252"


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
    raw, encoding = decode_bytes(data)
    text, _ = normalize_newlines(raw)
    text = text.replace("\x00", "\ufffd")
    warnings: list[str] = []
    if encoding not in ("utf-8", "utf-8-sig", "ascii"):
        warnings.append(f"text decoded as {encoding}")
    if "\ufffd" in text and "\ufffd" not in data.decode("utf-8", errors="ignore"):
        warnings.append("some bytes could not be decoded and were replaced")
    return Document(text=text, source_path=str(path), media_type=media_type,
                    warnings=tuple(warnings))
