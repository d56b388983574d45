"""The pieces of a synthetic document (``corpus.DocGen`` writes whole documents from them):
people, key/value fields, doctors, addresses, and MTS clinical prose whose few names, dates
and ages are labelled or replaced, with hard negatives and relatives mixed in."""

from __future__ import annotations

import random
import re

from engine.core.labels import Label
from engine.training.builder import Builder
from engine.training.ehr import Tele
from engine.training.phi import MONTHS, PhiGen, TeleGen

HARD_NEGATIVES = (
    "Bruce protocol stress test was negative.",
    "History of Parkinson's disease.",
    "Glasgow Coma Scale 15.",
    "Babinski sign negative bilaterally.",
    "Hodgkin lymphoma in remission.",
    "Crohn's disease, stable on Humira.",
    "Foley catheter removed.",
    "Apgar scores 8 and 9.",
    "Started Lasix 20 mg daily.",
    "Continue Coumadin, INR 2.4.",
    "Tylenol 500 mg q6h PRN.",
    "BP 128/84, HR 72, RR 16, SpO2 98% on room air.",
    "HbA1c 7.2%.",
    "Creatinine 1.2 mg/dL, eGFR 58.",
    "TP53 variant g.7578395G>C detected.",
    "ICD-10 I10, E11.9.",
    "MRI: T2 hyperintensity at L4-L5.",
    "C5-C6 disc protrusion.",
    "Hashimoto thyroiditis.",
    "Addison's disease on hydrocortisone.",
    "Graves disease treated with methimazole.",
    "Cushing syndrome ruled out.",
    "Bell's palsy resolved.",
    "Alzheimer dementia, MMSE 22/30.",
    "Wilms tumor history.",
    "Barrett's esophagus on surveillance.",
    "Tanner stage 3.",
    "Homan's sign negative.",
    "McMurray test positive.",
    "Lachman test negative.",
    "Murphy's sign positive.",
    "Kernig and Brudzinski signs negative.",
    "Gleason 3+4=7 adenocarcinoma.",
    "Metoprolol 25 mg BID, atorvastatin 40 mg, Eliquis 5 mg BID.",
    "Synthroid 88 mcg daily.",
    "WBC 11.2, Hgb 13.4, Plt 250.",
    "Na 138, K 4.1, Cl 101, CO2 24.",
    "Dose: 0.5 mL IM x1.",
    "Ejection fraction 45%.",
    "Grade 3/6 systolic murmur.",
    "Follow up in 2 weeks.",
    "Room air.",
    "Gram stain showed gram-positive cocci.",
    "Whipple procedure in the past.",
    "Nissen fundoplication.",
    "Epley maneuver performed.",
    "Valsalva maneuver.",
    "Down syndrome.",
    "Tourette syndrome.",
    "Lyme disease serology pending.",
    "Guillain-Barre syndrome.",
    "Raynaud phenomenon.",
    "Meniere's disease.",
    "Osgood-Schlatter disease.",
    "Hirschsprung disease.",
    "Kaposi sarcoma.",
)
RELATIONS = (
    "wife",
    "husband",
    "daughter",
    "son",
    "mother",
    "father",
    "sister",
    "brother",
    "partner",
    "niece",
    "friend",
    "neighbour",
    "caregiver",
    "grandson",
)
CREDENTIALS = (
    "MD",
    "MD, FRCPC",
    "MD, CCFP",
    "DO",
    "NP",
    "RN",
    "PA-C",
    "MBBS",
    "PharmD",
    "RN, BScN",
)

_DOC_TITLE = re.compile(r"\b(Dr|Doctor|Mr|Mrs|Ms|Miss)\.? ([A-Z][a-z]+(?: [A-Z][a-z]+)?)")
_MONTH = "|".join(m for m in MONTHS) + "|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
_DATE = re.compile(
    rf"\b(?:(?:{_MONTH})\.? \d{{1,2}}(?:st|nd|rd|th)?,? \d{{4}}|\d{{1,2}}/\d{{1,2}}/\d{{2,4}}"
    rf"|(?:{_MONTH}) \d{{4}}|(?:{_MONTH}) \d{{1,2}}(?:st|nd|rd|th)?)\b"
)
_YEAR = re.compile(
    r"(?:(?<=\bin )|(?<=\bIn )|(?<=\bof )|(?<=\bsince )|(?<=\bfrom ))(?:19|20)\d{2}\b"
)
_AGE = re.compile(
    r"\b(\d{1,3})(?=(?:-| )(?:year|yr|month|week|day)s?(?:-| )old\b| ?y/?o\b|-years?\b)"
)


MEASURE_TEMPLATES = (
    "Vitals: {vitals}. ",
    "{vitals}. ",
    "Labs at {time}: {labs}. ",
    "{abg} on {vent}. ",
    "{hemo}. ",
    "Given {dose} at {time}. ",
    "{score}, {score}. ",
    "Seen at {time}; {cap}. ",
    "{drug} {dose}. ",
    "Overnight ({shift}): {io}. ",
)


class Pieces:
    """The pieces a synthetic document is written from, on one seeded rng: people, fields,
    doctors, addresses, and clinical prose with its PHI labelled or replaced."""

    def __init__(self, seed: int, split: str, bodies: list[str]) -> None:
        self.rng = random.Random(f"{seed}-{split}")
        self.gen = PhiGen(self.rng)
        self.tele = TeleGen(self.gen)
        self.bodies = bodies
        self.split = split
        self.pat: tuple[str, str] = ("", "")
        self.gender = "F"
        self.tele_notes = Tele(self)

    # -- helpers -------------------------------------------------------------------------
    def _person(self, gender: str | None = None) -> tuple[str, str]:
        return self.gen.first(gender), self.gen.last()

    def _sep(self) -> str:
        return self.rng.choice((": ", ": ", " - ", ":  ", ":\t", " "))

    def _field(
        self, b: Builder, key: str, value: str, label: Label | None, subtype: str | None = None
    ) -> None:
        b.add(key + self._sep())
        if label is None:
            b.add(value)
        else:
            b.phi(value, label, subtype)
        b.add(self.rng.choice(("\n", "\n", "  ", "; ", "    ")))

    def _name(self, b: Builder, first: str, last: str, label: Label) -> None:
        b.phi(self.gen.full_name(first, last), label)

    def _doctor(self, b: Builder, with_title: bool = True) -> None:
        f, l_ = self._person()
        if with_title and self.rng.random() < 0.75:
            b.add(self.rng.choice(("Dr. ", "Dr ", "Doctor ", "DR. ")))
            b.phi(self.rng.choice((l_, f"{f} {l_}", f"{f[0]}. {l_}")), Label.DOCTOR)
        else:
            b.phi(self.gen.full_name(f, l_), Label.DOCTOR)
            if self.rng.random() < 0.5:
                b.add(", " + self.rng.choice(CREDENTIALS))

    def _address(self, b: Builder, multiline: bool) -> None:
        sep = "\n" if multiline else ", "
        b.phi(self.gen.street(), Label.LOCATION, "STREET")
        b.add(sep)
        b.phi(self.gen.city(), Label.LOCATION, "CITY")
        b.add(self.rng.choice((", ", " ", ",  ")))
        b.phi(self.gen.province(), Label.LOCATION, "PROVINCE")
        b.add(self.rng.choice(("  ", " ", ", ")))
        b.phi(self.gen.postal(), Label.LOCATION, "POSTAL_CODE")
        if self.rng.random() < 0.15:
            b.add(sep)
            b.phi(self.gen.country(), Label.LOCATION, "COUNTRY")

    # -- body text -----------------------------------------------------------------------
    def _body(self, b: Builder, pat: tuple[str, str], gender: str) -> None:
        """One clinical prose section with in-text PHI labelled or replaced."""
        text = self.rng.choice(self.bodies)
        first, last = pat
        title = "Mrs." if gender == "F" else "Mr."
        # Personalise the opening sometimes ("The patient is ..." -> "Ms. Lee is ...").
        m = re.match(r"(?:The|This) (?:patient|lady|gentleman|woman|man)\b", text)
        if m and self.rng.random() < 0.6:
            if self.rng.random() < 0.5:
                b.add(self.rng.choice((title, "Ms.", "Patient")) + " ")
                b.phi(last if self.rng.random() < 0.6 else f"{first} {last}", Label.PATIENT)
            else:
                b.phi(self.gen.full_name(first, last), Label.PATIENT)
            text = text[m.end() :]
        marks: list[tuple[int, int, Label, str | None]] = []
        for rx, lab in (
            (_DOC_TITLE, None),
            (_DATE, Label.DATE),
            (_YEAR, Label.DATE),
            (_AGE, Label.AGE),
        ):
            for mm in rx.finditer(text):
                if lab is None:
                    who = Label.DOCTOR if mm.group(1).startswith(("Dr", "Doctor")) else Label.PERSON
                    marks.append((mm.start(2), mm.end(2), who, "name"))
                elif lab is Label.AGE:
                    marks.append((mm.start(1), mm.end(1), lab, None))
                else:
                    marks.append((mm.start(), mm.end(), lab, "date"))
        marks.sort()
        cur = 0
        for s, e, lab, kind in marks:
            if s < cur:
                continue
            self._prose(b, text[cur:s])
            value = text[s:e]
            if kind == "name" and self.rng.random() < 0.7:
                value = (
                    self.gen.last() if " " not in value else f"{self.gen.first()} {self.gen.last()}"
                )
            elif kind == "date" and self.rng.random() < 0.5:
                value = self.gen.date_str()
            b.phi(value, lab)
            cur = e
        self._prose(b, text[cur:])

    def _prose(self, b: Builder, text: str) -> None:
        """Unlabelled clinical text; occasionally a hard negative or a relative is mixed in."""
        if not text:
            return
        b.add(text)
        r = self.rng.random()
        if r < 0.08 and text.endswith(". "):
            if self.rng.random() < 0.5:
                b.add(self.rng.choice(HARD_NEGATIVES) + " ")
            else:  # the telegraphic measurements also turn up in letters
                self.tele_notes.fill(b, self.rng.choice(MEASURE_TEMPLATES))
        elif r < 0.12 and text.endswith(". "):
            f, l_ = self._person()
            b.add(
                f"Accompanied by her {self.rng.choice(RELATIONS)}, "
                if self.rng.random() < 0.5
                else f"Collateral from {self.rng.choice(RELATIONS)} "
            )
            b.phi(f if self.rng.random() < 0.5 else f"{f} {l_}", Label.PERSON)
            b.add(". ")
