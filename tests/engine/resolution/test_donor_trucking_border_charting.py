"""Golden cases from ICU notes with sparse PHI written around organ donation, among Somali and
Hmong families, in a college town, after interstate truck crashes, among Chinese-speaking
families, in a border city, in a Great Lakes industrial city and in a wildfire region (issue
26, dev sets 49-52): a nickname the patient asks for, an interpreter by name, the festivals
families plan around and an organ procurement organisation are PHI; a day and a time before
an event, prose after "address -", "none" in brackets, shorthand and a trauma in a sign-out,
a hedge, a choice or a clause word before a kind of facility, a drug list, a field's label
after an initial, a prefix and a word, a relative's language or nation, a yeast by its
species, a region of the world, the weekend after a holiday, the area after a place's name,
clergy without a name, Chinese languages, herbal medicines, rites, signs, scores, exercise
and a ventilator are not. Both sides; synthetic text only; rules and dictionaries through the
real pipeline, a model's spans through the guards."""

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
    ('GRAFT PROCEDURES. PT ASKS TO BE CALLED "SKIP".\nS: PAIN 4/10', "SKIP"),
    ("pt more alert today, asks to be called nimo instead of her full name.", "nimo"),
    ("somali interp abdikarim in person for rounds.", "abdikarim"),
    ("Family meeting at bedside w/ Cantonese interpreter Fung. Pt and wife", "Fung"),
    ("pt hopes to be home for eid w/ her kids.", "eid"),
    ("family hopes she will be home by hmong new year, discussed tcu", "hmong new year"),
    ("Family visited for Mid-Autumn Festival and brought mooncakes", "Mid-Autumn Festival"),
    ("Routine referral already made to Tri-County Donor Alliance per policy",
     "County Donor Alliance"),
    ("ADMITTED OVER LABOR DAY WEEKEND AFTER BEING BURNED", "LABOR DAY"),
    ("bed 3 - Halvorsen, 58M, s/p ex-lap, pod 2", "Halvorsen"),
    ("transfer to Hollis Grove LTACH when bed available", "Hollis Grove"),
    ("Lives at 2217 Larkspur Ave with son", "2217 Larkspur Ave"),
    ("Dr. Weber-Santana aware of the plan", "Weber-Santana"),
    ("the sister (Ilda) called back", "Ilda"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("4/22 0430 HONOR WALK FROM UNIT TO OR: STAFF LINED HALLWAY", "HONOR WALK"),
    ("mom's house as permanent address - no accessible home to d/c to, so snf vs ipr "
     "discussed. insurance pending", "no accessible home"),
    ("ALLERGIES (NKDA) AND HOME MEDS (NONE PER FAMILY) REVIEWED.", "NONE"),
    ("bed 8 - polytrauma, r ptx s/p ct, rib fx x6", "polytrauma"),
    ("bed 10 - ex-lap pod0, open abdomen w/ abthera", "ex-lap pod0"),
    ("bed 4 - hcc, s/p tace, watch hgb q6h", "hcc"),
    ("Likely LTACH - CM exploring local options", "Likely LTACH"),
    ("HOME O2, HOME PT, POSSIBLY SNF. PT PREFERS HOME", "POSSIBLY SNF"),
    ("discussed d/c options, pt declines snf, prefers to stay w/ cousin", "declines snf"),
    ("- elderly snf pt: comfort care started this pm", "elderly snf"),
    ("OFF ART X 1 YR AFTER LOSING CLINIC ACCESS), PRESENTS W/ FEVER", "LOSING CLINIC"),
    ("CONT LTACH PLANNING, CM AWARE.", "CONT LTACH"),
    ("remove prior to transfer unless ltach wants it", "unless ltach"),
    ("HOME W/ HOSPICE ON DOBUTAMINE (INOTROPE-CAPABLE HOSPICE) VS INPATIENT", "CAPABLE"),
    ("Propofol switched to Precedex (Brugada drug list reviewed, avoid Na-channel blockers)",
     "Brugada drug"),
    ("Pt E - CO poisoning, back from HBOT session #2, neuro exam normal", "HBOT"),
    ("SWAB POSITIVE FOR C. AURIS, REPORTED THURS", "C. AURIS"),
    ("Assessment: Appropriate EID regimen for renal fxn. Trough not needed on EID", "EID"),
    ("d/c teaching done w/ interpreter incl. safe sleep, fever", "incl"),
    ("Husband verbalized understanding via interpreter teach-back.", "teach-back"),
    ("backup caregiver: pt's cousin, will attend device training", "pt's"),
    ("Incident report filed.\nPost-fall huddle w/ charge RN 0415.", "Post-fall"),
    ("at bedside, Cantonese-speaking; sister (English) is spokesperson.", "English"),
    ("roommate contacted pt's parents (Mandarin-speaking) w/ SW", "Mandarin-speaking"),
    ("Cr 1.8 (baseline 1.0 per Canadian pharmacy profile faxed by family)", "Canadian"),
    ("IBW 77.6 kg. Needs (ASPEN/SCCM obese critically ill): 22-25 kcal/kg", "ASPEN"),
    ("OPO COORD AWARE OF ALL RESULTS, ENTERED IN DONORNET", "COORD"),
    ("DONOR UNOS ID KCF9023. OFF-GOING: DAY COORDINATOR.", "UNOS"),
    ("Pt is a middle-aged M, resident of the Oro Vista area, evacuated", "area"),
    ("TRAVELED FOR 2 MO VISITING RELATIVES IN RURAL SE ASIA (RICE FARMING AREA)", "SE ASIA"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label", "kept"), [
    ("IMAM HAS BEEN VISITING DAILY, FAMILY ASKED", "IMAM", Label.PATIENT, []),
    ("Family's imam, Sheikh Abdiqani Hersi, arrived 1330", "Sheikh Abdiqani Hersi",
     Label.PERSON, ["Abdiqani Hersi"]),
    ("MET W/ SOMALI COMMUNITY ELDER HAJI MAXAMED DIRIYE AT FAMILY'S REQUEST",
     "HAJI MAXAMED DIRIYE", Label.PERSON, ["MAXAMED DIRIYE"]),
    ("fall from scaffold, tbi + c6 fx in collar", "scaffold", Label.LOCATION, []),
    ("61 yo M brought in by EMS from evac center after smoke exposure", "evac center",
     Label.HOSPITAL, []),
])
def test_what_the_guards_keep_of_a_models_span(text: str, piece: str, label: Label,
                                               kept: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, label) == kept


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("Counsel family: stop dong quai, ginkgo, fish oil.", "dong quai", Label.PERSON),
    ("asked whether a Pien Tze Huang capsule could be given via tube", "Pien Tze Huang",
     Label.PERSON),
    ("Faint periumbilical ecchymosis (Cullen). Anasarca 2+.", "Cullen", Label.PERSON),
    ("Reflexes 2+ symmetric, Hoffmann neg, no clonus.", "Hoffmann", Label.PERSON),
    ("Glasgow-Blatchford 12 on admission; complete Rockall 3 post-endo", "Rockall",
     Label.HOSPITAL),
    ("ON TRANSPORT VENT (HAMILTON T1) SETTINGS MATCHED", "HAMILTON T1", Label.LOCATION),
    ("warfarin for mechanical MVR (St. Jude bileaflet), INR 2.5-3.5", "St. Jude bileaflet",
     Label.LOCATION),
    ("led recitation of Surah Yasin at bedside", "Surah Yasin", Label.PERSON),
    ("Family requests soul-calling (hu plig) ceremony after surgery", "hu plig", Label.PERSON),
    ("family: wife speaks mainly toishanese, some cantonese", "toishanese", Label.LOCATION),
    ("PT ASKING ABOUT RESUMING MORNING TAI CHI IN THE PARK", "TAI CHI", Label.PERSON),
    ("Interpreter note: husband speaks Shanghainese primarily", "Shanghainese", Label.LOCATION),
])
def test_named_things_are_no_name(text: str, piece: str, label: Label) -> None:
    assert recovered_by_the_allowlist(text, piece, label)
