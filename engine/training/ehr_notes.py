"""Layouts of the telegraphic note styles, written with ``ehr.Tele`` templates."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.training import signout as signout_style

if TYPE_CHECKING:
    from engine.training.builder import Builder
    from engine.training.ehr import Tele

SYSTEMS_SECTIONS: dict[str, tuple[str, ...]] = {
    "NEURO": (
        "AAOx3, MAE, PERRL {n}mm brisk. follows commands.",
        "A&Ox{few}. {score}. {score}. PERRL.",
        "sedated on {dose}. {score}. opens eyes to voice, MAE weakly.",
        "lethargic but arousable. {score}. medicated w/ {dose} for pain w/ good effect.",
        "neuro checks q1h intact. {score}.",
        "off sedation @{clock}, {score}. nods appropriately.",
        "confused overnight, reoriented. {score}. soft restraints d/c'd {time}.",
        "{score}, {score}. {cap}.",
    ),
    "CV": (
        "{vitals}. no ectopy.",
        "HR {rate} {rhythm}. SBP 90-120s. MAP >65. {dose}.",
        "{hemo}. {hemo}.",
        "{cap}. {dose}, weaned to off @{clock}.",
        "K {lab} repleted w/ {dose}. Mg {lab}.",
        "+pulses x4, extremities warm. edema {few}+ LE. {rhythm}.",
        "{rhythm} {vitals}. {eponym} in place.",
    ),
    "RESP": (
        "LS CTA bilat. {vent}. SpO2 {sat}.",
        "{abg} on {vent}.",
        "coarse rhonchi, suctioned for mod amt thick tan sputum. {vent}.",
        "extubated @{clock} to {vent}, tolerating well. {abg}.",
        "RR {n} unlabored. diminished bases. IS x10 q1h. {cap}.",
        "{vent}, {abg}. SBT in AM.",
    ),
    "GI/GU": (
        "abd soft, NT/ND, BS+. {io}.",
        "TF @ {n}cc/hr goal {n}. OGT placement confirmed by xray.",
        "NPO after MN for procedure. {io}. {eponym} patent.",
        "BM x{few} loose brown, c.diff sent. {io}.",
        "{io}. {dose}. {abbr}.",
    ),
    "SKIN": (
        "intact. coccyx pink, Mepilex in place. {score}.",
        "stage 2 sacral decub, dsg changed. turning q2h.",
        "R IJ TLC site CDI. PIV x2 patent. {eponym} to bulb sx.",
        "JP drain w/ {n}cc serosang. {score}.",
    ),
    "ID": (
        "Tmax {temp}. WBC {lab}. on {drug}/{drug}.",
        "afebrile. cx pending from {date}. contact precautions for MRSA.",
        "T {temp} @{clock}, cultured, {drug} started.",
    ),
    "ENDO": (
        "RISS, BS {n}-{n}. {dose}.",
        "FSBG {n} @{clock}, covered w/ {n}u humalog. {cap}.",
        "{cap}. TSH pending.",
    ),
    "SOCIAL": (
        "{relation} {rel} in to visit, updated by RN.",
        "{relation} {rel} called x{few}, updated on pt's condition.",
        "{relation}/HCP {rel} at bedside. {shout}.",
        "family meeting w/ {relation} {rel} and Dr. {dr}, pt now DNR/DNI.",
        "lives w/ {relation} in {town}. {abbr}.",
        "no family contact this shift. FULL CODE.",
        "pt goes by {nick}. {relation} {rel} to call in AM.",
        "{relation} ({rel}) phone {phone}. {cap}.",
        "{relation} {rel:lower} in to visit, very supportive.",
        "{relation:upper} {rel:upper} CALLED, UPDATED.",
    ),
    "PLAN": (
        "cont to monitor. wean {drug} as tol. {cap}.",
        "transfer to {hosp} when bed available.",
        "back to {unit} when bed available.",
        "f/u AM labs, {labs}. DR. {dr:upper} AWARE.",
        "possible extubation in AM. MD aware.",
        "cont current plan of care. PA {dr} notified of {cause}.",
        "{shout}. {cap}. {dr} MD aware.",
        "transfer to {gunit} today vs tomorrow. d/w Dr {dr}.",
        "plan to d/c to {hosp} rehab in {town} when stable.",
    ),
}
SHIFT_EVENTS = (
    "{time} pt pulled out PIV, new PIV placed. RN {rn} assisted.",
    "{time} labs sent: {labs}.",
    "{time} {dose} given for {cause}, Dr. {dr} aware.",
    "{time} {vitals}.",
    "{time} {abg}, vent changed to {vent}.",
    "{time} pt c/o pain, {score}, medicated w/ {dose}.",
    "{time} {relation} {rel} called, updated.",
    "{time} turned and repositioned, {eponym} emptied.",
    "{time} {cause}, MD aware, no new orders.",
    "{time} {cap}.",
    "{time} pt back from {gunit}, {vitals}.",
    "{time} report called to RN {rn} on {unit}.",
)
SHIFT_SENTENCES = (
    "Pt rec'd from {gunit} @ {clock} via stretcher.",
    "Pt is a {age}yo {sex} adm {date} w/ {complaint}.",
    "{age} y/o {sex} s/p fall at home in {town}, h/o {pmh}.",
    "A&Ox3, MAE, follows commands. {score}.",
    "{vitals}. {rhythm}.",
    "on {vent}, {abg}.",
    "{io}. {dose}.",
    "{relation} {rel} at bedside most of shift.",
    "Dr. {dr} in to see pt, plan d/w {relation}.",
    "{shout}.",
    "{cap}.",
    "{eponym} in place, {abbr}, {abbr}.",
    'pt states "i want to go home to {town}".',
    "Charted in {system}.",
    "Will transfer to {hosp} in AM, report to be called to {rn}.",
    "Pt lives at {street}, {town} w/ {relation}.",
    "{dr:lower} aware of {cause}.",
    "RN {rn} to assume care @ {clock}.",
)
ED_LINES = (
    ("CC", ("{complaint} x{few} days", "{complaint}", "{complaint}, {complaint}")),
    (
        "HPI",
        (
            "{age}yo {sex} w/ h/o {pmh} p/w {complaint} x{few} days.",
            "{age} y/o {sex} BIBA from home in {town} w/ {complaint}.",
            "{age}yo {sex} transferred from {hosp} for {complaint}, {labs}.",
            "pt is a {age} yo {sex}, found down by {relation} {rel}, unknown downtime.",
        ),
    ),
    ("PMH", ("{pmh}",)),
    ("MEDS", ("{drug}, {drug}, {drug}", "{dose}, {drug}", "see med rec in {system}")),
    ("ALL", ("NKDA", "PCN (rash)", "sulfa, {drug}")),
    (
        "SOCIAL",
        (
            "lives w/ {relation} in {town}. EtOH {n} drinks/day.",
            "{relation} {rel} is HCP, phone {phone}.",
            "lives alone on {street}. former smoker.",
        ),
    ),
    ("VS", ("{vitals}", "{vitals} {score}")),
    (
        "EXAM",
        (
            "NAD, AAOx3. PERRL. CTA bilat. RRR. abd soft NT/ND BS+. MAE.",
            "GEN: NAD. HEENT: PERRLA. CV: {rhythm}. PULM: CTA. {score}.",
        ),
    ),
    ("LABS", ("{labs}. {abg}.", "{labs}", "{labs}. trop neg x2.")),
    (
        "ED COURSE",
        (
            "{dose}, {dose}. {cap}.",
            "given {dose} @ {clock}. seen by Dr. {dr}.",
            "{time} {dose}. {time} repeat {labs}.",
        ),
    ),
    (
        "DISPO",
        (
            "admit to {gunit}, Dr. {dr} accepting.",
            "transfer to {hosp}, accepted by Dr {dr}.",
            "d/c home w/ {relation}, f/u PCP {dr} in 1 wk.",
            "admit {unit}, {abbr}.",
            "{shout}. admit to {gunit}.",
        ),
    ),
)
MAR_LINES = (
    "{time} {dose} given",
    "{time} {drug} {n}mg PO given",
    "{time} {drug} held - SBP {n}, MD aware",
    "{time} {dose} given by RN {rn}",
    "{time} {drug} refused by pt",
    "{time} PRN {dose} for {score}, effective",
    "{time} {dose} started, verified w/ RN {rn}",
    "{time} {drug} via {system} override",
    "{date} {time} {dose} given",
    "{time} {drug} {n}u SC given, FSBG {n}",
)
LAB_LINES = (
    "{labs}",
    "{labs}",
    "{abg}",
    "{hemo}",
    "{abg} on {vent}",
    "{time}: {labs}",
    "Critical value {labs} called to Dr. {dr} @ {clock}, read back.",
    "Collected by {rn} @ {clock}",
    "repeat {labs} @ {clock}",
    "{hemo}, {hemo}",
)


def header(t: Tele, b: Builder, title: str) -> None:
    r = t.rng
    b.add(title)
    if r.random() < 0.5:
        b.add(" ")
        t.fill(b, r.choice(("{shift}", "{date} {shift}", "{date}", "{time}")))
    b.add("\n")
    if r.random() < 0.6:
        t.fill(
            b,
            r.choice(
                (
                    "Pt: {pt}  MRN: {mrn}\n",
                    "{pt}  #{mrn}  {age}yo {sex}\n",
                    "Name: {pt}   MR# {mrn}   DOA {date}\n",
                    "{age} y/o {sex}  MRN {mrn}  {gunit}\n",
                    "PT {pt:upper}, {age}YO, ACCT {mrn}\n",
                )
            ),
        )


def icu_systems(t: Tele, b: Builder) -> None:
    r = t.rng
    header(
        t,
        b,
        r.choice(
            (
                "NPN",
                "Nursing Progress Note",
                "MICU NPN",
                "CCU NURSING PROGRESS NOTE",
                "SICU Nursing Note",
                "Nursing note",
                "RN note",
            )
        ),
    )
    if r.random() < 0.4:
        t.fill(
            b,
            r.choice(
                (
                    "{age}yo {sex} w/ {pmh} adm w/ {complaint}.\n",
                    "Events: {time} {cause}, Dr. {dr} aware.\n",
                    "{shout}\n",
                )
            ),
        )
    heads = list(SYSTEMS_SECTIONS)
    keep = [h for h in heads if h in ("NEURO", "CV", "RESP", "PLAN") or r.random() < 0.7]
    for h in keep:
        b.add(h + r.choice((": ", ":", " - ", ":  ")))
        t.lines(b, SYSTEMS_SECTIONS[h], r.choice((1, 1, 2, 2, 3)), " ")
        b.add("\n")
    _sign(t, b)


def nursing_shift(t: Tele, b: Builder) -> None:
    r = t.rng
    header(
        t,
        b,
        r.choice(
            ("Shift note", "Nursing shift note", "NURSING NOTE", "RN Shift Summary", "Nsg note")
        ),
    )
    t.lines(b, SHIFT_SENTENCES, r.randrange(3, 8), r.choice((" ", "\n", "  ")))
    if r.random() < 0.8:
        b.add("\n" + r.choice(("Events:\n", "EVENTS\n", "Overnight:\n", "")))
        events = r.sample(SHIFT_EVENTS, r.randrange(2, 6))
        for e in events:
            t.fill(b, e)
            b.add("\n")
    if r.random() < 0.5:  # a sentence of real clinical prose
        t.doc._body(b, t.doc.pat, t.doc.gender)
        b.add("\n")
    _sign(t, b)


def ed(t: Tele, b: Builder) -> None:
    r = t.rng
    header(
        t,
        b,
        r.choice(("ED NOTE", "ED Triage", "Emergency Dept note", "ED PROVIDER NOTE", "Triage")),
    )
    for key, pool in ED_LINES:
        if key not in ("CC", "HPI", "DISPO") and r.random() < 0.35:
            continue
        b.add(key + r.choice((": ", ":", " - ")))
        t.fill(b, r.choice(pool))
        if key == "HPI" and r.random() < 0.5:
            b.add(" ")
            t.doc._body(b, t.doc.pat, t.doc.gender)
        b.add("\n")
    _sign(t, b)


def flowsheet(t: Tele, b: Builder) -> None:
    r = t.rng
    header(t, b, r.choice(("FLOWSHEET", "Vital signs flowsheet", "VS / I&O", "Flowsheet")))
    sep = r.choice((" | ", "  ", "\t", " "))
    for _ in range(r.randrange(3, 10)):
        row = r.choice(
            (
                "{time}" + sep + "{vitals}",
                "{time}" + sep + "{vitals}" + sep + "{score}",
                "{time}" + sep + "{io}",
                "{time}" + sep + "{vent}" + sep + "{score}",
                "{time}" + sep + "{dose}",
                "{time}" + sep + "{vitals}" + sep + "RN {rn}",
                "{time}" + sep + "{score}" + sep + "{score}" + sep + "{abbr}",
            )
        )
        t.fill(b, row)
        b.add("\n")
    if r.random() < 0.4:
        t.fill(b, r.choice(("Verified by {rn}\n", "{cap}\n", "Entered in {system} by {rn}\n")))


def mar(t: Tele, b: Builder) -> None:
    r = t.rng
    header(t, b, r.choice(("MAR", "Medication Administration Record", "MEDS GIVEN", "Med admin")))
    for _ in range(r.randrange(3, 10)):
        t.fill(b, r.choice(MAR_LINES))
        b.add("\n")


def lab_panel(t: Tele, b: Builder) -> None:
    r = t.rng
    b.add(r.choice(("LABS", "Labs", "LAB RESULTS", "labs")) + " ")
    t.fill(b, r.choice(("{date} @{clock}:", "{date}:", "({time})", "{date} {time}")))
    b.add("\n")
    if r.random() < 0.5:
        t.fill(b, r.choice(("Pt: {pt} MRN {mrn}\n", "MRN: {mrn}\n", "{pt:upper} #{mrn}\n")))
    for _ in range(r.randrange(2, 8)):
        t.fill(b, r.choice(LAB_LINES))
        b.add("\n")


def _sign(t: Tele, b: Builder) -> None:
    r = t.rng
    if r.random() < 0.7:
        t.fill(
            b,
            r.choice(
                (
                    "{rn} RN\n",
                    "-- {rn}, RN\n",
                    "RN {rn}\n",
                    "signed {rn} {date} {time}\n",
                    "{dr}, MD\n",
                    "{rn:lower} rn\n",
                    "{rn} RN BSN\n",
                )
            ),
        )


def signout(t: Tele, b: Builder) -> None:
    """A sign-out note (engine.training.signout): a header, 4 to 12 lines of shorthand and
    identifiers, a signature."""
    r = t.rng
    header(t, b, r.choice(("NPN", "Nursing Progress Note", "sign out", "Signout", "ICU events")))
    sep = r.choice((" ", "\n", "  "))
    for _ in range(r.randrange(4, 13)):
        t.fill(b, r.choice(signout_style.LINES))
        b.add(sep)
    b.add("\n")
    _sign(t, b)


WRITERS = {
    "icu_systems": icu_systems,
    "nursing_shift": nursing_shift,
    "ed": ed,
    "flowsheet": flowsheet,
    "mar": mar,
    "lab_panel": lab_panel,
    "signout": signout,
}


def write(t: Tele, b: Builder, style: str) -> None:
    WRITERS[style](t, b)
