"""Seeded synthetic clinical corpus with gold PHI spans by construction.

Documents are assembled from pieces: clinical prose (MTS-Dialog sections, with the few names
and dates already in them labelled or replaced), document templates (referral letters,
discharge summaries, progress/consult notes, lab and imaging reports, telephone encounters,
patient instructions; and, in ``ehr``/``ehr_notes``, telegraphic ICU, nursing, ED, flow-sheet,
medication and lab notes), and PHI drawn by ``PhiGen``/``TeleGen``. Offsets are recorded as
pieces are appended, so gold spans are exact after OCR-style noise (applied per piece); the
whole-document casing (upper, lower, mixed) is applied last and never changes a length. Hard
negatives (eponyms, drugs, vitals, lab strings, times, doses) are unlabelled text; times of
day are never PHI.

Reproducible: the same seed, split and count give the same documents.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

from engine.core.labels import Label
from engine.paths import shared_data_dir
from engine.training import ehr_notes
from engine.training.builder import Builder
from engine.training.phi import keep_len
from engine.training.pieces import HARD_NEGATIVES, MEASURE_TEMPLATES, RELATIONS, Pieces

SPLITS = ("train", "dev", "test")
CASINGS = ("as_is", "upper", "lower", "mixed")
# Share of documents per telegraphic style (about 52 % in all); the rest are the letter kinds.
TELE_WEIGHTS = {
    "icu_systems": 0.12,
    "nursing_shift": 0.08,
    "ed": 0.07,
    "flowsheet": 0.045,
    "mar": 0.045,
    "lab_panel": 0.04,
    "signout": 0.12,
}
# Whole-document casing: about 30 % of documents are not as typed.
CASING_WEIGHTS = {"upper": 0.12, "lower": 0.11, "mixed": 0.07}

SECTIONS_BY_KIND = {
    "referral": (
        "Reason for referral",
        "History",
        "Medications",
        "Allergies",
        "Examination",
        "Impression",
    ),
    "discharge": (
        "Admission diagnosis",
        "History of present illness",
        "Hospital course",
        "Discharge medications",
        "Discharge instructions",
        "Follow-up",
    ),
    "progress": ("Subjective", "Objective", "Assessment", "Plan"),
    "consult": (
        "Reason for consultation",
        "History of present illness",
        "Past medical history",
        "Physical examination",
        "Assessment and plan",
    ),
    "lab": ("Specimen", "Results", "Interpretation"),
    "imaging": ("Clinical history", "Technique", "Findings", "Impression"),
    "phone": ("Telephone encounter", "Advice given"),
    "instructions": ("Your visit", "Medications", "When to seek care"),
}
KIND_TITLES = {
    "referral": "REFERRAL LETTER",
    "discharge": "DISCHARGE SUMMARY",
    "progress": "PROGRESS NOTE",
    "consult": "CONSULTATION NOTE",
    "lab": "LABORATORY REPORT",
    "imaging": "DIAGNOSTIC IMAGING REPORT",
    "phone": "TELEPHONE ENCOUNTER",
    "instructions": "PATIENT INSTRUCTIONS",
}
STAFF_ROLES = ("nurse", "RN", "pharmacist", "physiotherapist", "social worker", "resident", "Dr.")

_HEADING = re.compile(r"^(\s*[A-Za-z][A-Za-z /&().-]{0,30}:)")


def recase(text: str, casing: str, rng: random.Random) -> str:
    """Whole-document casing; the result has the same length, so gold offsets hold."""
    if casing == "upper":
        return keep_len(text, str.upper)
    if casing == "lower":
        return keep_len(text, str.lower)
    if casing != "mixed":
        return text
    out = []
    shouted = rng.random() < 0.3  # lines shouted at random, the rest as typed
    for line in text.splitlines(keepends=True):
        if shouted:
            out.append(keep_len(line, str.upper) if rng.random() < 0.4 else line)
            continue
        m = _HEADING.match(line)
        stripped = line.strip()
        if m:  # headings upper, body lower
            out.append(keep_len(m.group(1), str.upper) + keep_len(line[m.end() :], str.lower))
        elif stripped and stripped.upper() == stripped:  # title lines stay shouted
            out.append(line)
        else:
            out.append(keep_len(line, str.lower))
    return "".join(out)


def mts_path() -> Path:
    return shared_data_dir() / "mts_dialog_sections.jsonl"


def load_bodies(path: Path | None = None) -> dict[str, list[str]]:
    """MTS sections split 80/10/10 by a hash of their id, so test bodies are unseen."""
    path = path or mts_path()
    out: dict[str, list[str]] = {s: [] for s in SPLITS}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            h = int(hashlib.sha256(rec["id"].encode()).hexdigest()[:8], 16) % 10
            out["test" if h == 0 else "dev" if h == 1 else "train"].append(rec["text"])
    return out


class DocGen(Pieces):
    """Writes whole documents: a telegraphic note (``ehr_notes``) or a letter of one of
    the ``SECTIONS_BY_KIND`` kinds."""

    # -- documents -----------------------------------------------------------------------
    def document(self, idx: int) -> dict[str, object]:
        return self.build(idx)[0]

    def build(self, idx: int) -> tuple[dict[str, object], Builder]:
        """One record and the builder that wrote it (tests read its values and negatives)."""
        r = self.rng
        style = _pick(r, TELE_WEIGHTS)
        casing = _pick(r, CASING_WEIGHTS) or "as_is"
        gender = r.choice("FM")
        self.gender, self.pat = gender, self._person(gender)
        if style:
            b = Builder(r, noise=0.12 if r.random() < 0.05 else 0.0)
            ehr_notes.write(self.tele_notes, b, style)
            meta: dict[str, object] = {"kind": style}
        else:
            style, b = self._letter()
            meta = {"kind": style}
        meta.update(style=style, casing=casing, noise=bool(b.noise))
        rec: dict[str, object] = {
            "id": f"synth/{self.split}/{idx:06d}",
            "text": recase(b.text, casing, r),
            "spans": b.spans,
            "meta": meta,
        }
        return rec, b

    def _letter(self) -> tuple[str, Builder]:
        r = self.rng
        kind = r.choice(tuple(SECTIONS_BY_KIND))
        b = Builder(r, noise=0.12 if r.random() < 0.2 else 0.0)
        gender, pat = self.gender, self.pat
        self._header(b)
        b.add(("\n" + KIND_TITLES[kind] + "\n\n") if r.random() < 0.8 else "\n")
        self._patient_block(b, pat, kind)
        if kind == "referral" and r.random() < 0.7:
            b.add("\nDear ")
            self._doctor(b)
            b.add(",\n\nThank you for seeing ")
            self._name(b, *pat, Label.PATIENT)
            b.add(r.choice((", a ", " (age ", ", ")))
            b.phi(str(self.gen.age()), Label.AGE)
            b.add(
                r.choice(("-year-old ", " y/o ", " yo "))
                + ("woman" if gender == "F" else "man")
                + ". "
            )
            b.add(
                r.choice(("I would appreciate your opinion.\n\n", "Please assess and advise.\n\n"))
            )
        if kind == "phone":
            b.add("\nCaller: ")
            f, l_ = self._person()
            b.phi(r.choice((f, f"{f} {l_}")), Label.PERSON)
            b.add(f" ({r.choice(RELATIONS)}) called at ")
            b.neg(self.gen.time_str())
            b.add(" from ")
            b.phi(self.gen.phone(), Label.PHONE)
            b.add(".\n")
        sections = SECTIONS_BY_KIND[kind]
        for sec in sections[: r.randrange(2, len(sections) + 1)]:
            head = sec.upper() if r.random() < 0.6 else sec
            b.add("\n" + head + r.choice((":\n", ":\n", ": ", "\n")))
            if kind == "lab" and r.random() < 0.5:
                self._lab_table(b)
            elif r.random() < 0.2:
                self._list(b, pat)
            else:
                for _ in range(r.choice((1, 1, 2, 3))):
                    self._body(b, pat, gender)
                    b.add(r.choice(("  ", "\n", " ")))
            if r.random() < 0.4:
                self._extra_sentence(b, pat)
            b.add("\n")
        self._signature(b)
        return kind, b

    def _header(self, b: Builder) -> None:
        r = self.rng
        if r.random() < 0.15:
            return
        b.phi(self.gen.hospital(), Label.HOSPITAL)
        b.add("\n")
        if r.random() < 0.5:
            self._address(b, multiline=r.random() < 0.5)
            b.add("\n")
        if r.random() < 0.7:
            b.add(r.choice(("Tel", "Phone", "Ph", "T")) + self._sep())
            b.phi(self.gen.phone(), Label.PHONE, "PHONE")
            b.add(r.choice(("   ", "\n", " | ")) + r.choice(("Fax", "F", "FAX")) + self._sep())
            b.phi(self.gen.phone(), Label.PHONE, "FAX")
            b.add("\n")
        if r.random() < 0.2:
            b.phi(self.gen.url(), Label.WEB, "URL")
            b.add("\n")
        b.add(
            r.choice(("Date", "Date of service", "Visit date", "Dictated", "Report date"))
            + self._sep()
        )
        b.phi(self.gen.date_str(), Label.DATE)
        b.add("\n")

    def _patient_block(self, b: Builder, pat: tuple[str, str], kind: str) -> None:
        r = self.rng
        first, last = pat
        b.add(r.choice(("Patient", "Name", "Patient name", "RE", "Re", "PATIENT")) + self._sep())
        b.phi(self.gen.full_name(first, last), Label.PATIENT)
        b.add(r.choice(("\n", "   ", "; ")))
        fields = ["dob", "id", "id2", "age", "address", "phone", "email", "sex"]
        r.shuffle(fields)
        for f in fields[: r.randrange(2, len(fields))]:
            if f == "dob":
                self._field(
                    b,
                    r.choice(("DOB", "Date of birth", "D.O.B.", "Born")),
                    self.gen.date_str(self.gen.a_date(1925, 2022)),
                    Label.DATE,
                    "DOB",
                )
            elif f in ("id", "id2"):
                kd, v = self.gen.ident()
                key = {
                    "HCN": r.choice(("HCN", "Health card", "OHIP")),
                    "PHN": r.choice(("PHN", "BC PHN")),
                    "ULI": r.choice(("ULI", "AHCIP", "PHN")),
                    "SSN": "SSN",
                    "SIN": "SIN",
                    "INSURANCE": r.choice(("Insurance #", "Policy", "Member ID")),
                    "ACCESSION": "Accession",
                    "DEVICE": "Device serial",
                    "LICENSE": "Licence",
                    "ACCOUNT": r.choice(("Account", "Acct #", "Visit #")),
                }.get(kd, r.choice(("MRN", "Chart #", "MR#", "Hospital #")))
                self._field(b, key, v, Label.ID, kd)
            elif f == "age":
                self._field(b, r.choice(("Age", "AGE")), str(self.gen.age()), Label.AGE)
            elif f == "address":
                b.add(r.choice(("Address", "Addr", "Home")) + self._sep())
                self._address(b, multiline=False)
                b.add("\n")
            elif f == "phone":
                self._field(
                    b,
                    r.choice(("Phone", "Home phone", "Cell", "Tel")),
                    self.gen.phone(),
                    Label.PHONE,
                    "PHONE",
                )
            elif f == "email":
                self._field(
                    b,
                    r.choice(("Email", "E-mail")),
                    self.gen.email(first, last),
                    Label.WEB,
                    "EMAIL",
                )
            else:
                self._field(
                    b, r.choice(("Sex", "Gender")), r.choice(("F", "M", "Female", "Male")), None
                )
        if kind in ("referral", "consult", "lab", "imaging") and r.random() < 0.6:
            b.add(
                r.choice(
                    (
                        "Referring physician",
                        "Referred by",
                        "Family physician",
                        "Ordering provider",
                        "CC",
                    )
                )
                + self._sep()
            )
            self._doctor(b)
            b.add("\n")

    def _lab_table(self, b: Builder) -> None:
        r = self.rng
        rows = (
            ("Hemoglobin", "g/L", 90, 170),
            ("WBC", "x10^9/L", 2, 20),
            ("Platelets", "x10^9/L", 80, 500),
            ("Sodium", "mmol/L", 125, 150),
            ("Potassium", "mmol/L", 3, 6),
            ("Creatinine", "umol/L", 40, 300),
            ("ALT", "U/L", 5, 200),
            ("TSH", "mIU/L", 0, 10),
            ("Glucose", "mmol/L", 3, 20),
            ("HbA1c", "%", 4, 12),
        )
        b.add("Collected" + self._sep())
        b.phi(self.gen.date_str(), Label.DATE)
        b.add(" ")
        b.neg(self.gen.time_str())
        b.add("\nAccession" + self._sep())
        b.phi(self.gen.ident()[1], Label.ID, "ACCESSION")
        b.add("\n")
        for name, unit, lo, hi in r.sample(rows, r.randrange(3, len(rows))):
            val = round(r.uniform(lo, hi), r.choice((0, 1)))
            b.add(f"{name:<12}{val:>8} {unit:<10}{r.choice(('', 'H', 'L', ''))}\n")
        if r.random() < 0.5:
            b.add("Verified by: ")
            b.phi(self.gen.full_name(*self._person()), Label.DOCTOR)
            b.add(", MLT\n")

    def _list(self, b: Builder, pat: tuple[str, str]) -> None:
        r = self.rng
        for _ in range(r.randrange(2, 6)):
            b.add(r.choice(("- ", "• ", "* ", f"{r.randrange(1, 9)}. ")))
            c = r.random()
            if c < 0.5:
                b.add(r.choice(HARD_NEGATIVES))
            elif c < 0.65:
                b.add("Seen at ")
                b.phi(self.gen.hospital(), Label.HOSPITAL)
                b.add(" on ")
                b.phi(self.gen.date_str(), Label.DATE)
            elif c < 0.8:
                b.add("Follow up with ")
                self._doctor(b)
                b.add(" in " + r.choice(("2 weeks", "3 months", "6 weeks")))
            elif c < 0.9:
                b.add("Pharmacy: ")
                b.phi(self.gen.hospital(), Label.HOSPITAL)
                b.add(", ")
                b.phi(self.gen.phone(), Label.PHONE)
            else:
                b.add("Emergency contact: ")
                f, l_ = self._person()
                b.phi(f"{f} {l_}", Label.PERSON)
                b.add(f" ({r.choice(RELATIONS)}) ")
                b.phi(self.gen.phone(), Label.PHONE)
            b.add("\n")

    def _extra_sentence(self, b: Builder, pat: tuple[str, str]) -> None:
        r = self.rng
        c = r.random()
        if c < 0.2:
            b.phi(pat[0] if r.random() < 0.4 else self.gen.full_name(*pat), Label.PATIENT)
            b.add(r.choice((" was seen today with ", " returns with her ", " presents with ")))
            b.add(r.choice(("chest pain", "worsening dyspnea", "knee pain", "a rash")) + ". ")
        elif c < 0.35:
            b.add("Discussed with ")
            b.add(r.choice(STAFF_ROLES) + " ")
            b.phi(self.gen.full_name(*self._person()), Label.DOCTOR)
            b.add(r.choice((" from ", " at ")))
            b.phi(self.gen.hospital(), Label.HOSPITAL)
            b.add(". ")
        elif c < 0.5:
            b.add("Patient works as a ")
            b.phi(self.gen.profession().lower(), Label.OTHER)
            b.add(" and lives in ")
            b.phi(self.gen.city(), Label.LOCATION, "CITY")
            b.add(". ")
        elif c < 0.6:
            b.add("Originally from ")
            b.phi(self.gen.country(), Label.LOCATION, "COUNTRY")
            b.add(r.choice((", moved to Canada in ", ", arrived ")))
            b.phi(str(r.randrange(1970, 2024)), Label.DATE)
            b.add(". ")
        elif c < 0.7:
            b.add("Results sent via portal ")
            b.phi(self.gen.url(), Label.WEB, "URL")
            b.add(" and to ")
            b.phi(self.gen.email(), Label.WEB, "EMAIL")
            b.add(". ")
        elif c < 0.75:
            b.add("Login from ")
            b.phi(self.gen.ip(), Label.WEB, "IP")
            b.add(". ")
        elif c < 0.85:
            b.add("Last seen on ")
            b.phi(self.gen.date_str(), Label.DATE)
            b.add(" by ")
            self._doctor(b)
            b.add(". ")
        elif c < 0.93:
            self.tele_notes.fill(b, r.choice(MEASURE_TEMPLATES))
        else:
            b.add(r.choice(HARD_NEGATIVES) + " ")

    def _signature(self, b: Builder) -> None:
        r = self.rng
        b.add(
            "\n"
            + r.choice(
                ("Sincerely,\n", "Regards,\n", "Electronically signed by: ", "Dictated by: ", "")
            )
        )
        self._doctor(b, with_title=r.random() < 0.4)
        b.add("\n")
        if r.random() < 0.4:
            b.add(r.choice(("CPSA #", "CPSO ", "License ", "Lic. ")))
            b.phi(self.gen.digits(r.choice((5, 6))), Label.ID, "LICENSE")
            b.add("\n")
        if r.random() < 0.3:
            b.add(r.choice(("Pager ", "Pgr: ", "Cell: ")))
            b.phi(self.gen.phone(), Label.PHONE, "PAGER")
            b.add("\n")
        if r.random() < 0.3:
            b.add("D: ")
            b.phi(self.gen.date_str(), Label.DATE)
            b.add("  T: ")
            b.phi(self.gen.date_str(), Label.DATE)
            b.add("\n")
        if r.random() < 0.3:
            b.add("cc: ")
            self._doctor(b)
            b.add(", ")
            b.phi(self.gen.hospital(), Label.HOSPITAL)
            b.add("\n")


def _pick(rng: random.Random, weights: dict[str, float]) -> str | None:
    """A key drawn with its weight, or None with the remaining probability."""
    x = rng.random()
    for key, w in weights.items():
        if x < w:
            return key
        x -= w
    return None


def generate(
    seed: int, split: str, n: int, bodies: dict[str, list[str]] | None = None
) -> Iterator[dict[str, object]]:
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}")
    bodies = bodies or load_bodies()
    gen = DocGen(seed, split, bodies[split])
    for i in range(n):
        yield gen.document(i)


def write_jsonl(path: Path, docs: Iterator[dict[str, object]]) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with path.open("w", encoding="utf-8") as fh:
        for d in docs:
            fh.write(json.dumps(d, ensure_ascii=False) + "\n")
            n += 1
    return n


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m engine.training.corpus",
        description="Write the seeded synthetic train/dev/test JSONL splits.",
    )
    parser.add_argument("out", type=Path, help="output folder")
    parser.add_argument("seed", type=int, nargs="?", default=13)
    parser.add_argument("n_train", type=int, nargs="?", default=6000)
    args = parser.parse_args(argv)
    for split, n in (("train", args.n_train), ("dev", 300), ("test", 300)):
        print(split, write_jsonl(args.out / f"{split}.jsonl", generate(args.seed, split, n)))


if __name__ == "__main__":
    main()
