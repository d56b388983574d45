"""Sign-out style ICU notes: the zero-shot error classes of issue 26, in volume.

Real telegraphic notes are mostly clinical shorthand with a few identifiers in forms the
letter-like corpus never shows. This style writes both sides of each error class:

- never PHI (hard negatives or plain text): a word after ``pt`` (``pt cont``, ``pt rec'd``,
  misspellings), lines, devices and drips (``aline``, ``swan``, ``HO aware``, ``CareVue``),
  vent modes and clinical acronyms (``PS``, ``SIMV``, ``MN``, ``OSH``, ``LCX``), numbers in
  vent settings, balances, ranges and scores out of a total (``600 X 14``, ``+3300``,
  ``HR 100-112``, ``MMSE 24/30``, ``bcx 2/2``), period-joined shorthand (``hr.no``), section
  words (``Review of Systems``), and real shorthand spellings drawn with their observed
  frequencies from the Medical Abbreviation and Acronym Meta-Inventory
  (``shared/data/clinical_abbreviations``, CC BY 4.0), filtered by the shipped shorthand list
  so no name or place slips in as a negative;
- PHI: month/day charting dates after event words or before a clock time (``extub 4/1``,
  ``4/13 0446``), wards with a number (``back to Kessler 3``), hospitals by short name or
  acronym (``to CMH``), staff in lower case or initial + surname (``per d lang``,
  ``HO Brandt notified``), phone numbers in odd layouts (``301/555/0192``).

Years alone (``MI '92``) and weekday names are left out: whether they are PHI depends on the
policy, which the resolver decides, so the model is taught neither way.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from engine.core.labels import Label
from engine.paths import shared_data_dir

if TYPE_CHECKING:
    import random

    from engine.training.phi import PhiGen


class Filler(Protocol):
    """What the slots read from the note filler (engine.training.ehr.Tele)."""

    rng: random.Random
    gen: PhiGen

INVENTORIES = ("vanderbilt_clinic_notes.txt", "vanderbilt_discharge_sums.txt")
MIN_COUNT = 3
_VARIANT = re.compile(r"^(.+)_(\d+)$")

# Class 1: what follows "pt" in real notes (verbs, states, misspellings included).
PT_WORDS = (
    "cont", "cont'd", "became", "rec'd", "recd", "recieved", "received", "trached", "oob",
    "intubated", "extubated", "arousable", "weaned", "tol", "tolerating", "denies", "c/o",
    "remains", "resting", "sleeping", "afebrile", "agitated", "pulled", "alert", "awake",
    "states", "lethargic", "restless", "turned", "repositioned", "medicated", "premedicated",
    "transfused", "diuresed", "ambulated", "dangled", "voiding", "npo", "nods", "follows",
    "refused", "refusing", "able", "unable", "continues", "appears", "seems", "had", "was",
    "is", "has", "now", "still", "very", "more", "less", "agreeable", "anxious", "calm",
    "comfortable", "febrile", "hypotensive", "tachy", "brady", "diaphoretic", "somnolent",
    "combative", "cooperative", "oriented", "disoriented", "confused", "sedated", "paralyzed",
    "reintubated", "self-extubated", "placed", "started", "given", "seen", "examined", "taken",
    "transported", "returned", "back", "off", "on", "to", "w/", "s/p", "and", "also", "with",
)
# Class 2: lines, devices, drips and systems written as plain words.
DEVICES = (
    "aline", "a-line", "Aline", "A-line", "art line", "foley", "Foley", "hickman", "Hickman",
    "swan", "Swan", "PICC", "picc", "TLC", "cordis", "Cordis", "fem line", "R fem aline",
    "L fem TLC", "R IJ", "L SC", "OGT", "NGT", "ETT", "JP", "chest tube", "CT", "pleurx",
    "rectal tube", "flexiseal", "Flexiseal", "dobhoff", "Dobhoff", "PEG", "trach", "IABP",
    "pacer wires", "art line", "PIV", "PIVs", "mediport", "quinton", "Quinton", "vas cath",
)
STAFF_SHORT = ("HO", "ho", "MD", "md", "RN", "rn", "NP", "PA", "RT", "rt", "resident", "team")
SYSTEM_WORDS = ("CareVue", "carevue", "Carevue", "Epic", "Pyxis", "pyxis", "Omnicell", "MetaVision")
ACRONYMS = (
    "RRT", "PERLA", "PERRLA", "drng", "pao2", "PaO2", "fio2", "FiO2", "ABG", "VBG", "CXR", "KUB",
    "LCX", "RCA", "LAD", "OM1", "PDA", "CABG", "PTCA", "EGD", "ERCP", "HIDA", "TTE", "TEE",
    "OSH", "osh", "MN", "mn", "NPO", "DNR", "DNI", "FULL CODE", "CMO", "SBT", "RSBI", "TF",
    "TFs", "CVVH", "CVVHD", "HD", "UF", "PRBC", "FFP", "plts", "cryo", "MAP", "CVP", "PAD",
)
MODES = ("PS", "PSV", "AC", "A/C", "SIMV", "IMV", "PC", "PCV", "PRVC", "CPAP", "APRV", "VC")
SECTION_WORDS = (
    "Review of Systems", "Nursing Progress Note", "Medical History", "Past Medical History",
    "General Practitioner", "Department", "Assessment", "Plan", "Events", "Social",
    "Progress", "Disposition", "Allergies", "Access", "Code status",
)
# Class 8: words that put a month/day number in time, and their vent/vital twins.
EVENT_WORDS = (
    "extub", "extubated", "intubated", "reintubated", "line", "placed", "admitted", "adm",
    "sent to floor", "d/c'd", "dc'd", "started", "changed", "cx'd", "cultured", "s/p",
    "since", "until", "on", "trached", "PEG", "CABG", "cath", "surgery", "last BM",
    "transferred", "fell", "seen", "due",
)


class SignoutSlots:
    """The style's slots for ``Tele.fill``; registered by ``Tele`` with its own."""

    def __init__(self, t: Filler) -> None:
        self.t, self.r = t, t.rng

    def table(self) -> dict[str, tuple[Label | str | None, Callable[[], str]]]:
        r = self.r
        pick = r.choice
        return {
            "ptw": ("", lambda: pick(PT_WORDS)),
            "pt_": ("", lambda: pick(("pt", "pt", "Pt", "PT", "pt.", "Pt."))),
            "device": ("", lambda: pick(DEVICES)),
            "staffw": ("", lambda: pick(STAFF_SHORT)),
            "chart": ("", lambda: pick(SYSTEM_WORDS)),
            "acro": ("", lambda: pick(ACRONYMS)),
            "mode": ("", lambda: pick(MODES)),
            "section": ("", lambda: pick(SECTION_WORDS)),
            "sh": ("", self.shorthand),
            "event": ("", lambda: pick(EVENT_WORDS)),
            "ventnum": (None, self.vent_numbers),
            "balance": (None, self.balance),
            "outof": (None, self.out_of),
            "joined": ("", self.joined),
            "mdate": (Label.DATE, self.month_day),
            "ward": (Label.HOSPITAL, self.ward),
            "staff": (Label.DOCTOR, self.staff),
            "oddphone": (Label.PHONE, self.odd_phone),
        }

    def shorthand(self) -> str:
        spellings, weights = shorthand_spellings()
        return self.r.choices(spellings, weights)[0]

    def vent_numbers(self) -> str:
        r = self.r
        return r.choice(
            (
                f"{r.choice((400, 450, 500, 550, 600))} X {r.randrange(10, 30)}",
                f"{r.choice((400, 450, 500, 550, 600))}x{r.randrange(10, 30)}",
                f"{r.choice(('PS', 'ps'))} {r.randrange(5, 20)}/{r.randrange(5, 11)}",
                f"CPAP {r.randrange(5, 11)}/{r.randrange(5, 15)}/{r.randrange(30, 60, 5)}%",
                f"{r.randrange(5, 20)}/{r.randrange(5, 11)}/{r.randrange(30, 70, 5)}%",
                f"TV {r.choice((400, 450, 500))} x {r.randrange(10, 24)}",
                f"BP {r.randrange(80, 190)}/{r.randrange(40, 110)}",
                f"{r.randrange(80, 190)}/{r.randrange(40, 110)}",
                f"RSBI {r.randrange(20, 140)}",
            )
        )

    def balance(self) -> str:
        r = self.r
        lo = r.randrange(5, 15) * 100
        return r.choice(
            (
                f"+{r.randrange(3, 60) * 100}",
                f"-{r.randrange(3, 30) * 100}",
                f"{lo}-{lo + r.randrange(2, 8) * 100}",
                f"HR {(h := r.randrange(60, 130))}-{h + r.randrange(5, 25)}",
                f"SBP {(s := r.randrange(8, 15))}0-{s + 2}0s",
                f"UO {(u := r.randrange(2, 6))}0-{u + 3}0cc/hr",
                f"LOS +{r.randrange(1, 12)}L",
                f"{r.randrange(20, 90)}-{r.randrange(90, 200)}cc/hr",
            )
        )

    def out_of(self) -> str:
        """A score or a count out of a total: a ratio, never a month and day."""
        r = self.r
        n = r.randrange(1, 9)
        return r.choice(
            (
                f"MMSE {r.randrange(10, 31)}/30",
                f"MoCA {r.randrange(10, 31)}/30",
                f"GCS {r.randrange(3, 16)}/15",
                f"power {r.randrange(0, 6)}/5",
                f"strength {r.randrange(0, 6)}/5 {r.choice(('RUE', 'LLE', 'bilat'))}",
                f"pain {r.randrange(0, 11)}/10",
                f"reflexes {r.randrange(0, 4)}+/4",
                f"Apgars {r.randrange(1, 10)}/{r.randrange(5, 10)}",
                f"bcx {r.randrange(0, 3)}/2 {r.choice(('GPC', 'neg', 'NGTD', 'GNR'))}",
                f"{n}/{n + r.randrange(0, 3)} bottles",
                f"voided {r.randrange(1, 5)}/{r.randrange(4, 8)} attempts",
                f"score {r.randrange(5, 28)}/{r.choice((20, 24, 28, 30, 56))}",
            )
        )

    def joined(self) -> str:
        a = self.r.choice(("hr", "residuals", "pt", "bs", "abd", "lungs", "sats", "uo", "k"))
        b = self.r.choice(("no", "sister", "soft", "ok", "wnl", "neg", "stable", "clear"))
        return f"{a}.{b}"

    def month_day(self) -> str:
        r = self.r
        m, d = r.randrange(1, 13), r.randrange(1, 29)
        return f"{m}/{d}" if r.random() < 0.85 else f"{m}/{d:02d}"

    def ward(self) -> str:
        r = self.r
        name = self.t.gen.last()
        return f"{name} {r.randrange(1, 13)}{r.choice(('', '', 'A', 'B', 'W'))}"

    def staff(self) -> str:
        r, g = self.r, self.t.gen
        first, last = g.first(), g.last()
        form = r.random()
        if form < 0.3:
            s = f"{first[0].lower()} {last.lower()}"
        elif form < 0.5:
            s = last.lower()
        elif form < 0.65:
            s = f"{first[0]}. {last.upper()}"
        elif form < 0.85:
            s = last
        else:
            s = f"{first.lower()} {last.lower()}"
        return s

    def odd_phone(self) -> str:
        r = self.r
        a, b, c = r.randrange(201, 990), r.randrange(200, 1000), r.randrange(10000)
        return r.choice(
            (f"{a}/{b}/{c:04d}", f"{a} {b}{c:04d}", f"{a}{b}-{c:04d}", f"{a}.{b}.{c:04d}")
        )


@lru_cache(maxsize=1)
def shorthand_spellings() -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Observed spellings of the inventories' abbreviations, with their counts: only those
    the shipped shorthand list keeps (it has dropped names, places and institutions)."""
    from engine.resolution.shorthand import shorthand_words

    keep = shorthand_words()
    counts: dict[str, int] = {}
    base = shared_data_dir() / "clinical_abbreviations"
    for name in INVENTORIES:
        with (base / name).open(encoding="utf-8") as fh:
            next(fh)  # header
            for line in fh:
                cols = line.rstrip("\n").split("\t")
                if len(cols) < 3:
                    continue
                for variant in cols[2].split("|"):
                    m = _VARIANT.match(variant)
                    if not m or int(m.group(2)) < MIN_COUNT:
                        continue
                    spelling = m.group(1).replace("_", "/")
                    if spelling.casefold() in keep:
                        counts[spelling] = counts.get(spelling, 0) + int(m.group(2))
    ordered = sorted(counts)
    return tuple(ordered), tuple(counts[s] for s in ordered)


# Sentences of one sign-out note: each mixes shorthand with at most a few identifiers.
LINES = (
    "{pt_} {ptw} {sh} {sh}.",
    "{pt_} {ptw} {ptw}, {sh} {n}.",
    "{pt_} {ptw} {dose}.",
    "{pt_} {ptw} to {mode} {ventnum}, {abg}.",
    "{device} d/c'd, {device} placed {time}.",
    "{device} placed {mdate}, {sh}.",
    "{staffw} aware of {sh} {balance}.",
    "{staffw} aware. {sh} {sh} {n}.",
    "{acro} {sh}, {acro} pending.",
    "{acro} neg. {chart} updated.",
    "on {mode} {ventnum}, {acro} {abg}.",
    "weaned to {mode} {ventnum} @ {clock}.",
    "{mode} {ventnum} overnight, RSBI {n}.",
    "I/O {balance}, {balance} since MN.",
    "{balance} for LOS. {sh} {sh}.",
    "{joined}. {sh} {sh}.",
    "{joined}, {joined}.",
    "NPO after MN for {acro}.",
    "from OSH {mdate} w/ {complaint}.",
    "transferred from OSH on {mode}.",
    "{event} {mdate}, {sh}.",
    "{event} {mdate} {clock}.",
    "Extubated {mdate}, sent to floor {mdate}.",
    "{mdate} {clock} {labs}.",
    "{outof}, {outof}. {sh} {mdate}.",
    "{sh} {outof}, {event} {mdate}.",
    "last BM {mdate}. {io}.",
    "back to {ward} when {sh}.",
    "d/c to {ward} {mdate}.",
    "to {hosp} for {acro} {mdate}.",
    "transferred from {hosp}, {sh} {sh}.",
    "per {staff}, {sh} {dose}.",
    "{staff} aware of {acro} {balance}.",
    "md {staff} aware, {sh} {n}.",
    "HO {staff} notified @ {clock}.",
    "dr {staff} to call {rel} at {oddphone}.",
    "{rel} ({relation}) called, # {oddphone}.",
    "{section}: {sh} {sh} {n}.",
    "{section} - {sh}, {vitals}.",
    "{sh} {sh} {sh}, {score}.",
    "{sh} x{few}, {sh} {n}. {cap}.",
)
