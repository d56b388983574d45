"""Golden cases from toxicology, neonatal, oncology, ECMO, pediatric cardiac, neurosurgical,
vascular and sign-out ICU notes with sparse PHI (issue 26, dev sets 19-22): neonatal and
cell-therapy shorthand after "to"/"from", the ICE score and the pupillometer's index,
blood-culture bottle counts, a hospital day, a pager's number, staged heart operations by
their surgeons' names; a dose given on a day at a time, a Saturday's date, an extension, a
newborn by sex and surname, what the family calls a patient, a header's unit field, a
clinician's name in brackets, a case number, a specialty's named centre. Both sides;
synthetic text only; rules and dictionaries through the real pipeline, a model's proposals at
the guards and the allowlist."""

from __future__ import annotations

import pytest

from engine.core.labels import Label
from engine.pipeline import Pipeline
from tests.engine.resolution.charting import (
    assert_always_a_span,
    assert_never_a_span,
    kept_of_a_models_span,
    recovered_by_the_allowlist,
)


@pytest.mark.parametrize(("text", "piece"), [
    ("today 745 g, down 4.5% from BW. HC 23 cm.", "BW"),
    ("EXTUBATE TO NIPPV 20/6 RATE 40 VIA RAM CANNULA", "NIPPV"),
    ("Blood sampling from UAC: 0.3 mL waste returned", "UAC"),
    ("no murmur, femorals 2+ equal, liver at RCM.", "RCM"),
    ("ingestion of antifreeze (per pt to EMS) in setting of job loss", "EMS"),
    ("dx w/ MDS 3 yrs ago, progressed to AML this spring", "AML"),
    ("Pt decannulated from VV ECMO 5 days ago, now trach collar", "VV"),
    ("told him Dr. Ahn from HF cardiology will discuss options", "HF"),
    ("IMPELLA 5.5 PLACED VIA R AXILLARY CUTDOWN HOSPITAL DAY 2. CI 2.6 ON P8.", "HOSPITAL"),
    ("if spikes again call onc fellow pgr 2281, they want mica added", "pgr"),
    ("levofloxacin, minocycline. Periph BCx 1/2 sets same. CT chest", "1/2"),
    ("MORE CONFUSED OVERNIGHT. ICE 6/10 AT 0400 - COULD NOT WRITE A SENTENCE", "6/10"),
    ("jaundiced to thighs (Kramer zone 4), active, good tone", "Kramer"),
    ("strong suck, Moro symmetric. Fontanelle soft.", "Moro"),
    ("Ventricular access device (Rickham reservoir) later this week", "Rickham"),
    ("6. Post-op Stanford type A dissection, s/p hemiarch", "Stanford"),
    ("SW NOTE: MET W/ FOB AT BEDSIDE, NOT YET ON BIRTH CERT", "FOB"),
    ("Pupils 3 mm, NPi 4.0/3.9 symmetric. ICP 12-16.", "4.0/3.9"),
    ("S/p Norwood w/ RV-PA (Sano) conduit, POD 2, chest open", "Sano"),
    ("pt s/p glenn pod 6, ra sats 80-84. pulse ox not needed post glenn.", "glenn"),
    ("PT S/P GLENN POD 4. SVC PRESSURE 15-17.", "GLENN"),
    ("feeds changed from similac to enfaport 20 kcal at same volume", "enfaport"),
    ("Spine precautions: Miami J at all times, reverse Trendelenburg", "Miami"),
    ("pt pod 2 s/p r fem-pop, hr 110s sinus, groin dressing dry", "fem-pop"),
    ("Referred to the Regional Sleep Center. Peritoneal Dialysis discussed.", "Sleep Center"),
    ("code status (DNR per family) confirmed at bedside", "DNR"),
    ("extubated pod 7. on 1/2 l nc sats 76-82. hr 140s", "1/2"),
    ("epidural abscess. pre-op ble 2/5, now hf 3/5, kf 3/5 bilat.", "2/5"),
    ("A/P: CLTI L LE, Rutherford 5, WIfI 2-0-3.", "Rutherford"),
    ("steal syndrome (DASS) L hand. HD today.", "DASS"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("QTc 520. Last bicarb bolus 10/3 2240 for QRS widening to 128", "10/3"),
    ("3. bb girl marsh 39 wk hie, cooling day 2 of 72h", "marsh"),
    ("BABY BOY OKAFOR, 34 WK, ADMITTED FROM L&D", "OKAFOR"),
    ("Twin B, 23+5 wk, BW 590 g. Parents call her Bea. Twin A in adjacent bed.", "Bea"),
    ("ADM: 04/11/2019   UNIT: PRUITT 7 MICU\nDX: AML", "PRUITT 7"),
    ("Transferred back to Kessler 3 MICU overnight", "Kessler 3"),
    ("cannula reinforced by CT surgery fellow (Frost). Flows maintained", "Frost"),
    ("position appropriate, no PTX.\nCase # CL-24-018833.\nPlan: heparin", "CL-24-018833"),
    ("outpt unit aware, next chair Sat 10/12 0600.", "10/12"),
    ("paged nsgy resident at x4417, at bedside 2140.", "4417"),
    ("Pt (Pip per family) is a former preterm infant", "Pip"),
    ("rn called b/c pt (nana to the family) pulling at bipap mask", "nana"),
    ("Pt was enrolled in the Kessering Bariatric Center for 14 months",
     "Kessering Bariatric Center"),
    ("Followed by Brackenford Hemophilia Center, on-call hematologist",
     "Brackenford Hemophilia Center"),
    ("Glenn (father) called at 1400, updated", "Glenn"),
    ("Dr. Rutherford 5 days ago placed the graft", "Rutherford"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label", "kept"), [
    ("micu progress note - methanol\n\n37 yo m, brought in from shelter", "methanol",
     Label.PATIENT, []),
    ("micu progress - sulfonylurea ingestion\n\n81 yo f", "sulfonylurea ingestion",
     Label.PATIENT, []),
    ("Progress note - Harold Finch\n\n67 yo m", "Harold Finch", Label.PATIENT, ["Harold Finch"]),
    ("GENETIC COUNSELOR A. LOFTUS, MS CGC - ALOFTUS@BRIARWOODHEALTH.ORG",
     "CGC - ALOFTUS@BRIARWOODHEALTH.ORG", Label.WEB, ["ALOFTUS@BRIARWOODHEALTH.ORG"]),
    ("NOTIFIED FELLOW DR QUINTANILLA AT X6-3391 0315. ORDERS: ALBUMIN", "X6-3391 0315",
     Label.PHONE, ["X6-3391"]),
    ("doses can be timed. Pharmacist Yusuf Demirci, PharmD, ICU pager", "Pharmacist Yusuf Demirci",
     Label.DOCTOR, ["Yusuf Demirci"]),
    ("plan: resume blina at 9 mcg/day once crs resolved", "blina", Label.PERSON, []),
    ("culture: strep intermedius (milleri group). sister asks", "intermedius", Label.PERSON, []),
    ("culture: strep intermedius (milleri group). sister asks", "milleri", Label.HOSPITAL, []),
])
def test_what_the_guards_keep_of_a_models_span(text: str, piece: str, label: Label,
                                               kept: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, label) == kept


@pytest.mark.parametrize(("text", "piece", "recovered"), [
    ("Ventricular access device (Rickham reservoir) planned", "Rickham", True),
    ("Neonatal f/u clinic at 4 mo CGA (Bayley at 18-24 mo)", "Bayley", True),
    ("Impression: Stanford type A dissection", "Stanford", True),
    ("CC: OHCA, ECPR. EMS: EPI X4, LUCAS DEVICE.", "LUCAS", True),
    ("Spoke with Dr. Moro about the scan", "Moro", False),
])
def test_the_allowlist(text: str, piece: str, recovered: bool) -> None:
    assert recovered_by_the_allowlist(text, piece, Label.PERSON) is recovered
