"""Synthetic 1,500-character notes for benchmarks: Faker PHI header + real clinical prose."""

from __future__ import annotations

import json
import random
from pathlib import Path

from faker import Faker

SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
FALLBACK_BODY = (
    "Patient presents with a two-week history of productive cough and low-grade fever. "
    "Denies chest pain. Started on amoxicillin 500 mg three times daily. Lungs with "
    "scattered crackles at the right base. Follow up in one week or sooner if worse. ")


def _bodies() -> list[str]:
    path = SHARED / "mts_dialog_sections.jsonl"
    if not path.exists():
        return [FALLBACK_BODY]
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line)["text"] for line in handle if line.strip()]


def make_notes(count: int, *, length: int = 1500, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    fake = Faker(["en_US", "en_CA"])
    fake.seed_instance(seed)
    bodies = _bodies()
    notes = []
    for _ in range(count):
        header = (f"Patient: {fake.name()}   DOB: {fake.date_of_birth().strftime('%m/%d/%Y')}"
                  f"   MRN: {rng.randint(1000000, 9999999)}\n"
                  f"Seen {fake.date_this_decade().strftime('%B %d, %Y')} by Dr. "
                  f"{fake.last_name()} at {fake.city()} General Hospital. "
                  f"Phone {fake.phone_number()}.\n\n")
        text = header
        while len(text) < length:
            text += rng.choice(bodies) + "\n"
        notes.append(text[:length])
    return notes


def short_letter(i: int) -> str:
    """A five-line letter with a name, a date of birth, a visit date, a phone and an MRN;
    the i-th differs from its neighbours (the desktop tests and benchmark import it)."""
    first = ["Anna", "Brian", "Carla", "David", "Elena"][i % 5]
    last = ["Keller", "Novak", "Olsen", "Price", "Quinn"][(i // 5) % 5]
    return (f"Patient: {first} {last}\nDOB: 19{50 + i % 40:02d}-0{1 + i % 9}-1{i % 10}\n"
            f"Seen on 2023-0{1 + i % 9}-2{i % 10} by Dr. Sam Lee.\n"
            f"Phone 403-555-{1000 + i:04d}. MRN {10000000 + i}.\n"
            f"{first} {last} reports chest pain; ECG normal.\n")
