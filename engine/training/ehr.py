"""Telegraphic EHR notes for the synthetic corpus: ICU systems notes, nursing shift notes, ED
notes, flow sheets, medication administration records and lab panels.

Notes are written from small templates whose ``{slots}`` are filled piece by piece, so gold
offsets stay exact. Slots are PHI (names in every case and short form, relatives by first
name, providers in ``MD aware`` phrases, hospital short names and acronyms, named wards,
towns, note-style dates, ages, prefixed MRNs) or hard negatives that real notes are full of
and that must never be PHI: vitals, ABG and hemodynamic strings, times of day, doses and
rates, scores, abbreviations, drug names, eponyms, charting systems, capitalised clinical words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from engine.core.labels import Label
from engine.training.ehr_vocab import (
    ABBREVIATIONS,
    CAP_PHRASES,
    CAUSES,
    COMPLAINTS,
    DRUGS,
    EPONYMS,
    GENERIC_UNITS,
    PMH,
    RELATIONS,
    RHYTHMS,
    ROUTES,
    SHOUTED,
    SYSTEMS,
)
from engine.training.signout import SignoutSlots

if TYPE_CHECKING:
    import random

    from engine.training.builder import Builder
    from engine.training.phi import PhiGen, TeleGen


class DocGen(Protocol):
    """What a note filler reads from the document generator (engine.training.corpus.DocGen)."""

    rng: random.Random
    gen: PhiGen
    tele: TeleGen
    pat: tuple[str, str]
    gender: str

    def _person(self, gender: str | None = None) -> tuple[str, str]: ...

    def _body(self, b: Builder, pat: tuple[str, str], gender: str) -> None: ...


TELE_STYLES = ("icu_systems", "nursing_shift", "ed", "flowsheet", "mar", "lab_panel", "signout")


class Tele:
    """Fills note templates into a ``Builder``; one per ``DocGen``."""

    def __init__(self, doc: DocGen) -> None:
        self.doc, self.rng, self.gen, self.tele = doc, doc.rng, doc.gen, doc.tele
        r = self.rng
        g = self.gen
        # slot -> (label or None for a hard negative or "" for plain text, value maker)
        self.slots: dict[str, tuple[Label | str | None, Callable[[], str]]] = {
            "vitals": (None, self.vitals),
            "abg": (None, self.abg),
            "hemo": (None, self.hemo),
            "labs": (None, self.labs),
            "time": (None, self.time),
            "shift": (None, self.shift),
            "clock": (None, lambda: self.time().lstrip("@ ~")),
            "dose": (None, self.dose),
            "score": (None, self.score),
            "vent": (None, self.vent),
            "io": (None, self.io),
            "n": (None, lambda: str(r.choice((r.randrange(1, 10), r.randrange(10, 100))))),
            "few": (None, lambda: str(r.randrange(1, 5))),
            "rate": (
                None,
                lambda: (
                    f"{(k := r.randrange(5, 13))}0s-{k + 1}0s"
                    if r.random() < 0.5
                    else f"{r.randrange(5, 13)}0s"
                ),
            ),
            "sat": (None, lambda: f"{r.randrange(88, 101)}%"),
            "lab": (None, lambda: f"{r.randrange(1, 9)}.{r.randrange(10)}"),
            "temp": (None, self.temp),
            "drug": ("", lambda: r.choice(DRUGS)),
            "abbr": ("", lambda: r.choice(ABBREVIATIONS)),
            "eponym": ("", lambda: r.choice(EPONYMS)),
            "system": ("", lambda: r.choice(SYSTEMS)),
            "cap": ("", self.cap),
            "shout": ("", lambda: r.choice(SHOUTED)),
            "relation": ("", lambda: r.choice(RELATIONS)),
            "rhythm": ("", lambda: r.choice(RHYTHMS)),
            "complaint": ("", lambda: r.choice(COMPLAINTS)),
            "pmh": ("", lambda: ", ".join(r.sample(PMH, r.randrange(1, 5)))),
            "gunit": ("", lambda: r.choice(GENERIC_UNITS)),
            "cause": ("", lambda: r.choice(CAUSES)),
            "sex": ("", lambda: r.choice(("M", "F", "male", "female"))),
            "pt": (Label.PATIENT, lambda: self.tele.name(*self.doc.pat)),
            "dr": (Label.DOCTOR, lambda: self.tele.name(*self.doc._person())),
            "rn": (Label.DOCTOR, lambda: self.tele.name(*self.doc._person())),
            "rel": (Label.PERSON, self.relative),
            "nick": (Label.PATIENT, self.tele.nickname),
            "hosp": (Label.HOSPITAL, self.tele.hospital_short),
            "unit": (Label.HOSPITAL, self.tele.unit),
            "town": (Label.LOCATION, self.tele.town),
            "street": (Label.LOCATION, self.tele.street),
            "date": (Label.DATE, self.tele.date),
            "age": (Label.AGE, lambda: str(g.age())),
            "mrn": (Label.ID, self.tele.mrn),
            "phone": (Label.PHONE, g.phone),
        }
        self.slots.update(SignoutSlots(self).table())

    # -- hard negatives ------------------------------------------------------------------
    def vitals(self) -> str:
        r = self.rng
        parts = [
            f"BP {r.randrange(80, 190)}/{r.randrange(40, 110)}",
            f"HR {r.randrange(45, 140)}",
            f"RR {r.randrange(8, 36)}",
            f"SpO2 {r.randrange(85, 101)}%"
            + r.choice(("", "", " RA", f" {r.randrange(1, 7)}L NC")),
            f"T {self.temp()}",
            f"MAP {r.randrange(55, 110)}",
        ]
        r.shuffle(parts)
        return r.choice((" ", ", ", "  ", " / ")).join(parts[: r.randrange(2, 7)])

    def temp(self) -> str:
        r = self.rng
        return (
            f"{r.randrange(96, 104)}.{r.randrange(10)}"
            if r.random() < 0.4
            else f"{r.randrange(35, 40)}.{r.randrange(10)}"
        )

    def abg(self) -> str:
        r = self.rng
        vals = f"7.{r.randrange(15, 55):02d}/{r.randrange(25, 80)}/{r.randrange(50, 400)}"
        if r.random() < 0.7:
            vals += f"/{r.randrange(14, 36)}"
        if r.random() < 0.2:
            vals += f"/{r.choice(('-', '+', ''))}{r.randrange(0, 8)}"
        return (
            r.choice(("ABG ", "abg: ", "ABG: ", "VBG ", "", "ABG @{t} ")).replace(
                "{t}", self.time().lstrip("@ ~")
            )
            + vals
        )

    def hemo(self) -> str:
        r = self.rng
        co, ci, svr = (
            f"{r.uniform(2, 9):.1f}",
            f"{r.uniform(1.2, 4.5):.2f}",
            str(r.randrange(400, 1800)),
        )
        return r.choice(
            (
                f"CO/CI/SVR {co}/{ci}/{svr}",
                f"CO/CI {co}/{ci}",
                f"PAP {r.randrange(20, 70)}/{r.randrange(8, 35)}",
                f"CVP {r.randrange(2, 22)}",
                f"PCWP {r.randrange(6, 30)}",
                f"SvO2 {r.randrange(45, 85)}%",
                f"CI {ci} SVR {svr}",
                f"PAS/PAD {r.randrange(20, 70)}/{r.randrange(8, 35)}",
            )
        )

    def labs(self) -> str:
        r = self.rng
        items = [
            f"Na {r.randrange(125, 150)}",
            f"K {r.randrange(2, 6)}.{r.randrange(10)}",
            f"Cl {r.randrange(90, 115)}",
            f"HCO3 {r.randrange(14, 34)}",
            f"BUN {r.randrange(5, 90)}",
            f"Cr {r.randrange(0, 6)}.{r.randrange(10)}",
            f"Glu {r.randrange(60, 400)}",
            f"Mg {r.randrange(1, 3)}.{r.randrange(10)}",
            f"Phos {r.randrange(1, 7)}.{r.randrange(10)}",
            f"WBC {r.randrange(2, 30)}.{r.randrange(10)}",
            f"Hct {r.randrange(18, 48)}.{r.randrange(10)}",
            f"Plt {r.randrange(20, 450)}",
            f"INR {r.randrange(1, 4)}.{r.randrange(10)}",
            f"PTT {r.randrange(24, 120)}",
            f"lactate {r.randrange(0, 9)}.{r.randrange(10)}",
            f"trop {r.choice(('<0.01', '0.04', '0.12', '1.3'))}",
            f"iCa {r.randrange(0, 2)}.{r.randrange(10, 40)}",
            f"Hgb {r.randrange(6, 16)}.{r.randrange(10)}",
        ]
        r.shuffle(items)
        out = r.choice((" ", ", ", "  ")).join(items[: r.randrange(1, 7)])
        if r.random() < 0.2:
            out += f"->{r.randrange(1, 9)}.{r.randrange(10)}"
        return out

    def time(self) -> str:
        r = self.rng
        h, m = r.randrange(24), r.choice((0, 0, 0, 15, 30, 45, r.randrange(60)))
        return r.choice(
            (
                f"{h:02d}{m:02d}",
                f"{h:02d}{m:02d}",
                f"{h % 12 or 12}{'am' if h < 12 else 'pm'}",
                f"@{h:02d}{m:02d}",
                f"@ {h:02d}{m:02d}",
                f"{h:02d}:{m:02d}",
                f"~{h % 12 or 12}am",
                f"{h % 12 or 12} {'AM' if h < 12 else 'PM'}",
                "noon",
                "midnight",
                f"{h:02d}00",
            )
        )

    def shift(self) -> str:
        return self.rng.choice(
            (
                "1930-0730",
                "0700-1900",
                "1900-0700",
                "7a-7p",
                "7p-7a",
                "0730-1930",
                "2300-0700",
                "1500-2300",
                "7A-7P",
                "19:00-07:00",
                "0700-1500",
            )
        )

    def dose(self) -> str:
        r = self.rng
        return r.choice(
            (
                f"propofol @ {r.randrange(5, 60)}mcg/kg/min",
                f"NS @ {r.choice((50, 75, 100, 125, 150))}cc/hr",
                f"LR @ {r.choice((75, 100, 125))}ml/hr",
                f"levophed {r.randrange(1, 30) / 100:.2f}mcg/kg/min",
                f"neo @ {r.randrange(20, 200)}mcg/min",
                f"lasix {r.choice((20, 40, 80))}mg IV x1",
                f"KCl {r.choice((20, 40, 60))}meq PO",
                f"fentanyl {r.choice((25, 50, 75, 100, 150))}mcg/hr",
                f"fentanyl {r.choice((25, 50))}mcg IV x{r.randrange(1, 4)}",
                f"insulin gtt @ {r.randrange(1, 15)}u/hr",
                f"heparin gtt @ {r.randrange(6, 20) * 100}u/hr",
                f"D5 1/2NS @ {r.choice((50, 75, 100))}cc/hr",
                f"{r.randrange(1, 4)} units PRBC",
                f"{r.choice((250, 500, 1000))}cc NS bolus",
                f"vanco {r.choice((1, 1.25, 1.5))}g IV q12h",
                f"{r.choice(DRUGS)} {r.choice((0.5, 1, 2, 4, 5, 10, 25, 40))}mg {r.choice(ROUTES)}",
                "MgSO4 2gm IV",
                f"precedex @ {r.randrange(2, 15) / 10:.1f}mcg/kg/hr",
                f"TF @ {r.randrange(10, 80)}cc/hr",
                f"dilaudid {r.choice((0.2, 0.5, 1, 2))}mg IV q{r.choice((2, 3, 4))}h prn",
            )
        )

    def score(self) -> str:
        r = self.rng
        e, v, m = r.randrange(1, 5), r.randrange(1, 6), r.randrange(1, 7)
        return r.choice(
            (
                f"GCS {e}+{v}+{m}",
                f"GCS {e + v + m}",
                f"GCS E{e}V{v}M{m}",
                f"RASS {r.randrange(-5, 3)}",
                f"RASS {r.choice(('-1', '-2', '0', '+1'))}",
                f"CPOT {r.randrange(0, 9)}",
                f"CAM-ICU {r.choice(('neg', 'pos', '+', '-'))}",
                f"Braden {r.randrange(6, 24)}",
                f"Morse {r.randrange(0, 125, 5)}",
                f"pain {r.randrange(0, 11)}/10",
                f"NIHSS {r.randrange(0, 30)}",
                f"CIWA {r.randrange(0, 30)}",
                f"strength {r.randrange(0, 6)}/5",
                f"pupils {r.randrange(2, 6)}mm",
            )
        )

    def vent(self) -> str:
        r = self.rng
        return r.choice(
            (
                f"AC {r.choice((400, 450, 500, 550))}x{r.randrange(10, 28)} "
                f"PEEP {r.randrange(5, 16)} FiO2 {r.randrange(30, 101, 5)}%",
                f"PS {r.randrange(5, 20)}/{r.randrange(5, 11)} {r.randrange(30, 60, 5)}%",
                f"CPAP+PS {r.randrange(5, 11)}/{r.randrange(5, 11)}",
                f"{r.randrange(1, 7)}L NC",
                f"{r.randrange(1, 7)}L NC",
                "NRB",
                "RA",
                f"{r.randrange(35, 100, 5)}% FM",
                f"BiPAP {r.randrange(10, 20)}/{r.randrange(5, 10)}",
                f"{r.randrange(40, 100, 10)}% cool neb",
                f"TC {r.randrange(28, 60)}%",
            )
        )

    def io(self) -> str:
        r = self.rng
        return r.choice(
            (
                f"UO {r.randrange(10, 60)}-{r.randrange(60, 200)}cc/hr",
                f"I/O +{r.randrange(1, 5)}.{r.randrange(10)}L",
                f"LOS +{r.randrange(1, 12)}.{r.randrange(10)}L",
                f"BM x{r.randrange(1, 4)} soft brown",
                f"I/O {r.randrange(800, 4000)}/{r.randrange(400, 4000)}",
                "foley draining clear yellow urine",
                f"UO {r.randrange(100, 900)}cc since {self.time()}",
            )
        )

    def cap(self) -> str:
        r = self.rng
        s = r.choice(CAP_PHRASES)
        return (
            s.replace("{n}", str(r.randrange(1, 8)))
            .replace("{system}", r.choice(SYSTEMS))
            .replace("{drug}", r.choice(DRUGS))
        )

    # -- PHI -----------------------------------------------------------------------------
    def relative(self) -> str:
        r = self.rng.random()
        if r < 0.6:
            return self.tele.cased(self.gen.first())
        if r < 0.75:
            return self.tele.nickname()
        return self.tele.name(self.gen.first(), self.gen.last())

    # -- templates -----------------------------------------------------------------------
    def fill(self, b: Builder, template: str) -> None:
        """Write one template; ``{slot}`` or ``{slot:upper|lower}``."""
        for i, part in enumerate(_parse(template)):
            if i % 3 == 0:
                if part:
                    b.add(part)
                continue
            if i % 3 == 2:
                continue
            kind, make = self.slots[part]
            mod = _parse(template)[i + 1]
            value = make()
            if mod:
                value = b.recase_piece(value, mod)
            if kind is None:
                b.neg(value)
            elif kind == "":
                b.add(value)
            else:
                assert isinstance(kind, Label)
                b.phi(value, kind, _SUBTYPES.get(part))

    def lines(self, b: Builder, pool: tuple[str, ...], k: int, sep: str) -> None:
        for t in self.rng.sample(pool, min(k, len(pool))):
            self.fill(b, t)
            b.add(sep)


_SUBTYPES = {"town": "CITY", "street": "STREET", "mrn": "MRN"}
_SLOT = re.compile(r"\{(\w+)(?::(\w+))?\}")


@lru_cache(maxsize=4096)
def _parse(template: str) -> tuple[str, ...]:
    """text, slot, modifier, text, slot, modifier, ..., text."""
    return tuple(p or "" for p in _SLOT.split(template))
