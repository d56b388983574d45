"""A synthetic EHR extract (synthetic PHI only): patients × visits, one row per visit, with
MRN, name, date of birth, visit date, ZIP, phone, two clinical columns and a note naming
the patient."""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

FIRST = ["Ottilie", "Marisol", "Thaddeus", "Perpetua", "Leocadio", "Wilhelmina", "Ignatius",
         "Rosalind", "Evander", "Clementine", "Barnaby", "Seraphina", "Lysander", "Honora"]
LAST = ["Brannagh", "Quillfeather", "Oakhollow", "Vantreight", "Marchetti", "Lindqvist",
        "Ashcombe", "Delacroix", "Featherstone", "Pemberton", "Whitlock", "Castellanos"]
ZIPS = ["02139", "10027", "60614", "94110", "03601", "59301", "77005", "98105"]
HEADER = ["mrn", "patient_name", "dob", "visit_date", "zip", "phone", "hba1c", "icd10",
          "note"]
CLINICAL = ("hba1c", "icd10")


@dataclass(frozen=True)
class Patient:
    mrn: str
    first: str
    last: str
    dob: date
    zip: str
    phone: str


def patients(n: int, seed: int = 28) -> list[Patient]:
    rng = random.Random(seed)
    out, names = [], set()
    while len(out) < n:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        if (first, last) in names:
            continue
        names.add((first, last))
        out.append(Patient(f"{rng.randint(1000000, 9999999)}", first, last,
                           date(1930, 1, 1) + timedelta(days=rng.randint(0, 25000)),
                           rng.choice(ZIPS),
                           f"617-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}"))
    return out


def write_extract(path: Path, n_patients: int = 50, visits: int = 4, seed: int = 28
                  ) -> list[Patient]:
    rng = random.Random(seed + 1)
    people = patients(n_patients, seed)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\r\n")
        writer.writerow(HEADER)
        for visit in range(visits):
            for p in people:
                seen = date(2020, 1, 1) + timedelta(days=rng.randint(0, 1800))
                note = (f"{p.first} {p.last} (MRN {p.mrn}) seen on {seen.isoformat()} for "
                        f"follow-up of type 2 diabetes, visit {visit + 1}. Plan reviewed "
                        f"with {p.first}; call {p.phone} if symptoms worsen.")
                writer.writerow([p.mrn, f"{p.first} {p.last}", p.dob.isoformat(),
                                 seen.isoformat(), p.zip, p.phone,
                                 f"{rng.uniform(5.2, 11.0):.1f}", rng.choice(
                                     ["E11.9", "E11.65", "I10", "E78.5"]), note])
    return people
