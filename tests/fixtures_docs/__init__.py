"""Fixture documents built offline, with synthetic PHI planted at known places.

``write_text_pdf`` writes a small PDF by hand (Helvetica, one text object per line, table
rules, metadata, an annotation, a form field and an attachment that all carry PHI, and
optional RC4-40 encryption), so the tests need nothing beyond the standard library.
"""

from __future__ import annotations

import hashlib
import io
import random
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

# ---------------------------------------------------------------- the synthetic letter

PATIENT = "Jane Quinlan Doe"
DOB = "1961-03-14"
PHN = "9876 543 210"
MRN = "MRN4451207"
PHONE = "403-555-0199"
DOCTOR = "Dr. Alan Grantham"
STREET = "742 Evergreen Terrace"
EMAIL = "jane.doe@example.org"
NOK = "Robert Doe"

PHI: tuple[str, ...] = (PATIENT, DOB, PHN, MRN, PHONE, DOCTOR, STREET, EMAIL, NOK)

HEADER = f"Riverside Family Clinic   Tel {PHONE}"
FOOTER = f"Patient: {PATIENT}   {MRN}   Page {{page}} of 2"

BODY_1 = [
    "REFERRAL LETTER",
    f"Dear {DOCTOR},",
    f"Re: {PATIENT}, DOB {DOB}, PHN {PHN}",
    f"Address: {STREET}, Calgary AB T2N 1N4",
    "Thank you for seeing this patient with a three month history of",
    "exertional chest pain and dyspnoea. Bruce protocol stress test was",
    "positive at stage 2. Current medications: atorvastatin 40 mg daily,",
    "ramipril 5 mg daily and ASA 81 mg daily.",
]
TABLE = [
    ("Contact", "Relation", "Detail"),
    (NOK, "Spouse", PHONE),
    ("E-mail", "Patient", EMAIL),
]
BODY_2 = [
    "Investigations",
    "Troponin negative twice. ECG shows sinus rhythm with no acute",
    "changes. Lipids: LDL 3.9 mmol/L. HbA1c 6.1 percent.",
    f"Please contact {PATIENT} directly to arrange an appointment.",
    "Kind regards,",
    f"{DOCTOR}",
]

PAGE_W, PAGE_H = 612.0, 792.0


@dataclass
class TextLine:
    x: float
    y: float
    text: str
    size: float = 11.0


@dataclass
class PageSpec:
    lines: list[TextLine] = field(default_factory=list)
    rules: list[tuple[float, float, float, float]] = field(default_factory=list)  # x0,y0,x1,y1


def letter_pages() -> list[PageSpec]:
    pages: list[PageSpec] = []
    for number, body in ((1, BODY_1), (2, BODY_2)):
        spec = PageSpec()
        spec.lines.append(TextLine(72, 750, HEADER, 9))
        y = 700.0
        for text in body:
            spec.lines.append(TextLine(72, y, text))
            y -= 18
        if number == 1:
            y -= 10
            top = y + 14
            for row in TABLE:
                for col, cell in enumerate(row):
                    spec.lines.append(TextLine(76 + col * 160, y, cell, 10))
                spec.rules.append((72, y - 5, 552, y - 5))
                y -= 20
            for col in range(4):
                spec.rules.append((72 + col * 160, top, 72 + col * 160, y + 15))
            spec.rules.append((72, top, 552, top))
        spec.lines.append(TextLine(72, 40, FOOTER.format(page=number), 9))
        pages.append(spec)
    return pages


def letter_text() -> str:
    """The letter's visible text, page by page (for OCR accuracy)."""
    out = []
    for spec in letter_pages():
        out.append("\n".join(line.text for line in spec.lines))
    return "\n".join(out)


# ---------------------------------------------------------------- a tiny PDF writer


class Name(str):
    pass


@dataclass
class Ref:
    num: int


@dataclass
class Stream:
    dict: dict
    data: bytes


_PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")


def _rc4(key: bytes, data: bytes) -> bytes:
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) % 256
        s[i], s[j] = s[j], s[i]
    i = j = 0
    out = bytearray()
    for byte in data:
        i = (i + 1) % 256
        j = (j + s[i]) % 256
        s[i], s[j] = s[j], s[i]
        out.append(byte ^ s[(s[i] + s[j]) % 256])
    return bytes(out)


class _Writer:
    def __init__(self, encrypt: tuple[str, str] | None) -> None:
        self.objects: list[object] = []
        self.file_id = hashlib.md5(b"clearnote-fixture").digest()
        self.key: bytes | None = None
        self.encrypt_dict: dict | None = None
        if encrypt:
            user, owner = (p.encode("latin-1") for p in encrypt)
            pad = lambda pw: (pw + _PAD)[:32]  # noqa: E731
            owner_key = hashlib.md5(pad(owner)).digest()[:5]
            o_entry = _rc4(owner_key, pad(user))
            perms = -44  # print + copy allowed, standard security handler R2
            key = hashlib.md5(pad(user) + o_entry + struct.pack("<i", perms)
                              + self.file_id).digest()[:5]
            self.key = key
            self.encrypt_dict = {"Filter": Name("Standard"), "V": 1, "R": 2,
                                 "O": o_entry, "U": _rc4(key, _PAD), "P": perms}

    def add(self, obj: object) -> Ref:
        self.objects.append(obj)
        return Ref(len(self.objects))

    def _obj_key(self, num: int) -> bytes:
        assert self.key is not None
        return hashlib.md5(self.key + struct.pack("<i", num)[:3] + b"\x00\x00").digest()[:10]

    def ser(self, value: object, num: int, encrypt: bool) -> bytes:
        if isinstance(value, Name):
            return b"/" + value.encode()
        if isinstance(value, bool):
            return b"true" if value else b"false"
        if isinstance(value, int | float):
            return repr(round(value, 3) if isinstance(value, float) else value).encode()
        if isinstance(value, Ref):
            return f"{value.num} 0 R".encode()
        if isinstance(value, str | bytes):
            data = value.encode("utf-16-be") if isinstance(value, str) else value
            if isinstance(value, str):
                data = b"\xfe\xff" + data
            if encrypt and self.key is not None:
                data = _rc4(self._obj_key(num), data)
            return b"<" + data.hex().encode() + b">"
        if isinstance(value, list):
            return b"[" + b" ".join(self.ser(v, num, encrypt) for v in value) + b"]"
        if isinstance(value, dict):
            inner = b" ".join(b"/" + k.encode() + b" " + self.ser(v, num, encrypt)
                              for k, v in value.items())
            return b"<< " + inner + b" >>"
        raise TypeError(type(value))

    def write(self, root: Ref, info: Ref | None) -> bytes:
        out = io.BytesIO()
        out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        enc_ref = None
        if self.encrypt_dict is not None:
            enc_ref = self.add(self.encrypt_dict)
        for num, obj in enumerate(self.objects, start=1):
            offsets.append(out.tell())
            encrypt = enc_ref is None or num != enc_ref.num
            out.write(f"{num} 0 obj\n".encode())
            if isinstance(obj, Stream):
                data = obj.data
                if encrypt and self.key is not None:
                    data = _rc4(self._obj_key(num), data)
                d = dict(obj.dict, Length=len(data))
                out.write(self.ser(d, num, encrypt) + b"\nstream\n" + data + b"\nendstream")
            else:
                out.write(self.ser(obj, num, encrypt))
            out.write(b"\nendobj\n")
        xref = out.tell()
        out.write(f"xref\n0 {len(self.objects) + 1}\n0000000000 65535 f \n".encode())
        for off in offsets:
            out.write(f"{off:010d} 00000 n \n".encode())
        trailer: dict = {"Size": len(self.objects) + 1, "Root": root,
                         "ID": [self.file_id, self.file_id]}
        if info is not None:
            trailer["Info"] = info
        if enc_ref is not None:
            trailer["Encrypt"] = enc_ref
        out.write(b"trailer\n" + self.ser(trailer, 0, False)
                  + f"\nstartxref\n{xref}\n%%EOF\n".encode())
        return out.getvalue()


def _content(spec: PageSpec) -> bytes:
    ops = []
    for x0, y0, x1, y1 in spec.rules:
        ops.append(f"0.5 w {x0} {y0} m {x1} {y1} l S")
    for line in spec.lines:
        hexed = line.text.encode("cp1252").hex()
        ops.append(f"BT /F1 {line.size} Tf {line.x} {line.y} Td <{hexed}> Tj ET")
    return "\n".join(ops).encode()


def write_text_pdf(path: Path, pages: Sequence[PageSpec] | None = None, *,
                   encrypt: tuple[str, str] | None = None, extras: bool = True) -> Path:
    """A text PDF; with ``extras`` PHI is also planted in metadata, an annotation, a form
    field and an attached file (all must be stripped from a redacted copy)."""
    pages = list(pages) if pages is not None else letter_pages()
    w = _Writer(encrypt)
    font = w.add({"Type": Name("Font"), "Subtype": Name("Type1"), "BaseFont": Name("Helvetica"),
                  "Encoding": Name("WinAnsiEncoding")})
    pages_ref = Ref(0)
    page_refs: list[Ref] = []
    field_ref: Ref | None = None
    pages_placeholder = w.add({})  # replaced below once kids are known
    pages_ref = pages_placeholder
    for i, spec in enumerate(pages):
        content = w.add(Stream({}, _content(spec)))
        page: dict = {"Type": Name("Page"), "Parent": pages_ref,
                      "MediaBox": [0, 0, PAGE_W, PAGE_H], "Contents": content,
                      "Resources": {"Font": {"F1": font}}}
        if extras and i == 0:
            note = w.add({"Type": Name("Annot"), "Subtype": Name("Text"),
                          "Rect": [500, 700, 520, 720], "Contents": f"Call {PATIENT} at {PHONE}"})
            field_ref = w.add({"Type": Name("Annot"), "Subtype": Name("Widget"),
                               "FT": Name("Tx"), "T": "patient", "V": f"{PATIENT} {DOB}",
                               "Rect": [300, 60, 500, 80]})
            page["Annots"] = [note, field_ref]
        page_refs.append(w.add(page))
    w.objects[pages_ref.num - 1] = {"Type": Name("Pages"), "Kids": page_refs,
                                    "Count": len(page_refs)}
    catalog: dict = {"Type": Name("Catalog"), "Pages": pages_ref}
    info = None
    if extras:
        assert field_ref is not None
        catalog["AcroForm"] = {"Fields": [field_ref]}
        embedded = w.add(Stream({"Type": Name("EmbeddedFile")},
                                f"notes on {PATIENT}, {STREET}".encode()))
        spec_ref = w.add({"Type": Name("Filespec"), "F": "notes.txt",
                          "EF": {"F": embedded}})
        catalog["Names"] = {"EmbeddedFiles": {"Names": ["notes.txt", spec_ref]}}
        info = w.add({"Title": f"Referral for {PATIENT}", "Author": DOCTOR,
                      "Subject": f"DOB {DOB}", "Keywords": MRN})
    root = w.add(catalog)
    data = w.write(root, info)
    path.write_bytes(data)
    return path


# ---------------------------------------------------------------- scans


def render_pages(pdf_path: Path, dpi: int = 300):  # type: ignore[no-untyped-def]
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(pdf_path)
    try:
        return [pdf[i].render(scale=dpi / 72, grayscale=True).to_pil() for i in range(len(pdf))]
    finally:
        pdf.close()


def degrade(image, *, noise: float = 0.01, skew: float = 1.2, seed: int = 7):  # type: ignore[no-untyped-def]
    """Fax-like damage: speckle noise, slight blur and a small skew."""
    import numpy as np
    from PIL import Image, ImageFilter

    rng = np.random.default_rng(seed)
    arr = np.asarray(image.convert("L"), dtype=np.int16)
    arr = arr + rng.normal(0, 18, arr.shape).astype(np.int16)
    speckle = rng.random(arr.shape)
    arr[speckle < noise / 2] = 0
    arr[speckle > 1 - noise / 2] = 255
    img = Image.fromarray(arr.clip(0, 255).astype("uint8"), "L")
    img = img.filter(ImageFilter.GaussianBlur(0.6))
    return img.rotate(skew, resample=Image.Resampling.BICUBIC, fillcolor=255, expand=False)


def _jpeg_page(pdf, image, dpi: int, *, quality: int):  # type: ignore[no-untyped-def]
    """A new page of ``pdf`` that is ``image`` alone, as a greyscale JPEG at ``dpi``."""
    import pypdfium2 as pdfium

    w_pt, h_pt = image.width * 72 / dpi, image.height * 72 / dpi
    page = pdf.new_page(w_pt, h_pt)
    buf = io.BytesIO()
    image.convert("L").save(buf, "JPEG", quality=quality)
    buf.seek(0)
    obj = pdfium.PdfImage.new(pdf)
    obj.load_jpeg(buf, inline=True)
    obj.set_matrix(pdfium.PdfMatrix().scale(w_pt, h_pt))
    page.insert_obj(obj)
    page.gen_content()
    return page


def write_image_pdf(path: Path, images, dpi: int = 300) -> Path:  # type: ignore[no-untyped-def]
    """An image-only PDF (one JPEG page per image), like a scanner or fax would make."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument.new()
    try:
        for image in images:
            _jpeg_page(pdf, image, dpi, quality=80)
        pdf.save(path)
    finally:
        pdf.close()
    return path


def random_text(seed: int, n: int = 400) -> str:
    rng = random.Random(seed)
    words = ["alpha", "beta", "Gamma", "delta", "42", "mg", "daily", "pain"]
    return " ".join(rng.choice(words) for _ in range(n))


# ---------------------------------------------------------------- spans and surrogates


def planted_spans(doc, strings: Sequence[str] = PHI):  # type: ignore[no-untyped-def]
    """ACCEPTED spans at every exact occurrence of each planted string in ``doc.text``."""
    from engine.core.domain import Source, Span, SpanStatus
    from engine.core.labels import Label

    spans = []
    for value in strings:
        i = doc.text.find(value)
        while i >= 0:
            spans.append(Span(i, i + len(value), Label.OTHER, source=Source.GOLD,
                              status=SpanStatus.ACCEPTED))
            i = doc.text.find(value, i + 1)
    return sorted(spans, key=lambda s: s.start)


def simple_deid(doc, spans, surrogate: str = "Sam Smith"):  # type: ignore[no-untyped-def]
    """A DeidentifiedText that replaces every span by ``surrogate`` (left-to-right pass)."""
    from engine.core.domain import DeidentifiedText, Replacement, SurrogateMode

    out: list[str] = []
    reps = []
    pos = 0
    length = 0
    for span in sorted(spans, key=lambda s: s.start):
        out.append(doc.text[pos:span.start])
        length += span.start - pos
        out.append(surrogate)
        reps.append(Replacement(span.id, span.start, span.end, span.label, length,
                                length + len(surrogate)))
        length += len(surrogate)
        pos = span.end
    out.append(doc.text[pos:])
    return DeidentifiedText(doc.id, "".join(out), tuple(reps), SurrogateMode.SURROGATE)


def write_docx(path: Path) -> Path:
    """A DOCX letter with PHI in the body, a table, the header, the footer and a comment."""
    import docx

    document = docx.Document()
    section = document.sections[0]
    section.header.paragraphs[0].text = HEADER
    section.footer.paragraphs[0].text = FOOTER.format(page=1)
    document.add_paragraph("REFERRAL LETTER")
    para = document.add_paragraph(f"Dear {DOCTOR},")
    document.add_paragraph("Thank you for seeing this patient with chest pain.")
    table = document.add_table(rows=len(TABLE), cols=3)
    for r, row in enumerate(TABLE):
        for c, cell in enumerate(row):
            table.cell(r, c).text = cell
    document.add_comment(para.runs, text=f"Confirm DOB {DOB} with {NOK}", author="QA",
                         initials="QA")
    document.save(str(path))
    return path


def write_scan_twin(pdf_path: Path, path: Path, *, rotate: int = 0, dpi: int = 200) -> Path:
    """The rasterised twin of a text PDF: each page an image at the page's own size. With
    ``rotate`` (90 or 270) the image is stored turned and the page's /Rotate turns it back,
    as a scanner that fed the sheet sideways writes it: it shows exactly like the original."""
    import pypdfium2 as pdfium
    from PIL import Image

    pdf = pdfium.PdfDocument.new()
    try:
        for image in render_pages(pdf_path, dpi):
            if rotate:
                # Stored turned by ``rotate`` counter-clockwise; /Rotate turns it clockwise.
                image = image.rotate(rotate, expand=True, resample=Image.Resampling.NEAREST)
            _jpeg_page(pdf, image, dpi, quality=85).set_rotation(rotate)
        pdf.save(path)
    finally:
        pdf.close()
    return path


def word_rects(pdf_path: Path, value: str, page_index: int = 0
               ) -> list[tuple[float, float, float, float]]:
    """Where PDFium prints each occurrence of ``value`` (PDF points, y up; tight boxes)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(pdf_path)
    page = pdf[page_index]
    textpage = page.get_textpage()
    rects = []
    search = textpage.search(value)
    while (found := search.get_next()) is not None:
        index, count = found
        boxes = [textpage.get_charbox(i, loose=False) for i in range(index, index + count)]
        rects.append((min(b[0] for b in boxes), min(b[1] for b in boxes),
                      max(b[2] for b in boxes), max(b[3] for b in boxes)))
    search.close()
    textpage.close()
    page.close()
    pdf.close()
    return rects
