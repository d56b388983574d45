"""Golden cases from ICU notes with sparse PHI (issue 26, session 50; dev sets 71-76: overdoses
and Louisiana families, oncology and Detroit or Chicago families, cooling after an arrest and
Las Vegas families, lower-case nursing notes and Nashville or Memphis families, pancreatitis and
San Francisco families, subarachnoid haemorrhage and Montana or Wyoming families).

PHI: what the family asks the patient be called ('ASKS THAT PT BE CALLED "RUSTY"'), a priest
after "Fr.", a consulting surgeon in brackets after the service ("gen surg (rivers)", "ct surg
(dr quintero)"), Polish doughnut day and the Assyrian new year, a sign-out's date after "sign
out -", the name after a title in a preferred name (not the title), a street named with a care
word ("2861 BOX ELDER CREEK RD"), a hyphenated name after a cue, a state's named hospital,
two-word tribal surnames after a given name, a title or a bed ("vernice standing elk").

Not PHI: a score out of ten after what hurts, with or without its time ("C/O CHEST TIGHTNESS
4/10 @ 2200"); a dose cut by a fraction; a sign-out list's clinical state where a name could
stand ("bed 8 - hypoxic"); the diabetic diet ("advanced to ADA"); freshwater; the side a
comparison ends on read as an initial ("R > L. BAL"); the Richmond scale, Fowler's position,
the Jarisch-Herxheimer reaction, Hodgkin's; normothermia; "in place of"; an article read as an
initial ("TRAMPLED BY A BULL"); a cardiac surgical ICU; ARDS by the Berlin definition; ASPEN's
formula; a Baptist pastor; Kurdish and Cajun French; "H&P"; "patient temp"; a team's letter;
the full stop after a street's suffix at the end of a line; a courtesy title alone; one plain
word someone was found in; French function words in capitals; a list item's first English
word; a catheter's lumen; "molly" in quotes after "took"; "goes by this"; what a patient is
eligible for; a duration; a state's lab and a backup facility; a fungal antigen; a critical
access hospital; a distance; one English word in capitals as a facility; a perforated DU.

Both sides; synthetic text only; rules and dictionaries through the real pipeline, a model's
spans through the guards."""

from __future__ import annotations

import pytest

from engine.core.domain import Document
from engine.core.labels import Label
from engine.pipeline import Pipeline
from tests.engine.resolution.charting import (
    assert_always_a_span,
    assert_never_a_span,
    kept_of_a_models_span,
    recovered_by_the_allowlist,
)


@pytest.mark.parametrize(("text", "piece"), [
    ('WIFE CALLED @ 2030, ASKS THAT PT BE CALLED "RUSTY". WANTS UPDATES', "RUSTY"),
    ("family asking if she'll be home for paczki day, explained depends on progress",
     "paczki day"),
    ("hopes to be home for the family gathering for Kha b-Nisan, though he understands",
     "Kha b-Nisan"),
    ("lungs diminished bases.\ngen surg (rivers) saw at 1700, ok for sips", "rivers"),
    ("Pt alert, pleasant, likes to be called Miss Dot. Day 3 for CHF exac", "Dot"),
    ("Ada called for update, will visit tomorrow", "Ada"),
    ("81 YO F FOUND BY MAIL CARRIER AT HOME, 2861 BOX ELDER CREEK RD, DOWN ON KITCHEN FLOOR",
     "2861 BOX ELDER CREEK RD"),
    ("plan: ct surg (dr quintero) eval for angiovac vs surgery", "quintero"),
    ("PT: Ngata-Brown, 54 yo", "Ngata-Brown"),
    ("transferred to Ohio State Hospital for ECMO", "Ohio State Hospital"),
    # two-word tribal surnames after a given name, a title or a sign-out's bed
    ("spoke w/ pt's sister vernice standing elk by phone", "vernice standing elk"),
    ("MICU SIGN-OUT 0700\nRM 4 - OLD ELK - DKA, GAP CLOSED 0300", "OLD ELK"),
    ("Mrs. Spotted Horse at bedside, updated", "Spotted Horse"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("pain: c/o sore throat post-extubation 3/10, chloraseptic spray given.", "3/10"),
    ("C/O CHEST TIGHTNESS 4/10 @ 2200 - 12 LEAD NO ST CHANGES", "4/10"),
    ("reduce tacro dose by ~2/3 today per transplant pharmacy", "2/3"),
    ("3. bed 8 - hypoxic, covid neg x2, on hfnc 50/60%.", "hypoxic"),
    ("Diet advanced to ADA. Eating breakfast.", "ADA"),
    ("NEAR-DROWNING, FRESHWATER/FLOODWATER SUBMERSION ~3-5 MIN", "FRESHWATER"),
    ("CXR: DIFFUSE BILAT INFILTRATES, R > L. BAL: GRAM NEG RODS", "L. BAL"),
    ("rewarm complete 0200, core 37.0. arctic sun set to normothermia 37. no shiver.",
     "normothermia"),
    ("ZOSYN IV Q6H STARTED. MERO IN PLACE OF TIMENTIN AFTER D/W ID FELLOW ON CALL",
     "PLACE OF TIMENTIN"),
    ("SPLENECTOMY AFTER BEING TRAMPLED BY A BULL IN THE PEN.", "A BULL"),
    ("CSICU RN NOTE 0700-1900\nS/P CABG X4 (LIMA-LAD)", "CSICU"),
    ("A/P: 38 yo w/ ARDS 2/2 MSSA PNA, severe (Berlin), septic shock.", "Berlin"),
    ("Est needs (ASPEN, BMI 30-50): 11-14 kcal/kg actual", "ASPEN"),
    ("they will call their own baptist pastor. pt remains gcs 5t off sedation",
     "baptist pastor"),
    ("Pt alert, pleasant, likes to be called Miss Dot. Day 3 for CHF exac", "Miss"),
    ("16 Fr. Foley placed, clear yellow urine", "Foley"),
    ("Comfort care\n- Liberal visiting, family may stay overnight", "Liberal"),
    ("bed 3 - rosie (goes by this), hanta r/o, hfnc 40l/60%", "this"),
    ("Insurance: pt IHS-eligible, PRC referral needed for this admission", "IHS-eligible"),
    ("callback # on PRC form in chart. 72-hr notification window - sent today", "72-hr"),
    ("HANTA PCR PENDING FROM STATE LAB. ECMO CENTER AWARE", "STATE LAB"),
    ("MAPLE CREST REHAB PENDING. BACKUP SNF REFERRALS PENDING.", "BACKUP SNF"),
    ("-> BLASTOMYCES. URINE BLASTO AG POS. SKIN: 2 VERRUCOUS LESIONS", "BLASTO"),
    ("accepted visit from chaplain (Spanish-speaking).\nLines: R IJ CVC day 4",
     "Spanish-speaking"),
    ("38 yo F, HD 2, transferred from CAH for hypoxemic resp failure", "CAH"),
    ("pt rode an old horse on the ranch, thrown, landed on L side", "old horse"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


def test_a_streets_suffix_leaves_the_sentences_full_stop(hipaa: Pipeline) -> None:
    text = "lives alone at 47 orchard hill rd.\ncore temp 32.1 on arrival"
    places = [text[s.start:s.end] for s in hipaa.run(Document.from_text(text)).active
              if s.label is Label.LOCATION]
    assert places == ["47 orchard hill rd"]


@pytest.mark.parametrize(("text", "piece", "label", "kept"), [
    ("Night float sign-out, MICU team B. Covering pgr 4-6613.", "B. Covering", Label.DOCTOR,
     []),
    ('quick note - arctic sun alarm "patient temp out of range" x3 overnight', "temp",
     Label.PATIENT, []),
    ("Admit H&P - MICU\n23 yo M w/ newly dx T-ALL", "H", Label.HOSPITAL, []),
    ("contacted their parish priest, Fr. Amoroso, who arrived 1540", "Amoroso", Label.PERSON,
     ["Amoroso"]),
    ("C/O CHEST TIGHTNESS 4/10 @ 2200", "4/10", Label.DATE, []),
    ("line placed 3/10 @ 2200, cxr confirmed", "3/10", Label.DATE, ["3/10"]),
    ("dc ~2/3 to rehab if bed available", "2/3", Label.DATE, ["2/3"]),
    ("bmt icu sign out - 1/6 night\n1) d+3 auto", "1/6", Label.DATE, ["1/6"]),
    ("Pt alert, pleasant, likes to be called Miss Dot. Day 3", "Miss", Label.PATIENT, []),
    # one plain word someone was found in, in a line without case; not where a home is
    ("pt found down in snowbank outside home ~0200, core temp 29", "snowbank", Label.LOCATION,
     []),
    ("bib ems after found down in riverbed encampment, no id", "riverbed", Label.LOCATION, []),
    ("pt lives in oxbow w/ wife, drove in", "oxbow", Label.LOCATION, ["oxbow"]),
    # common French words in a line of capitals
    ("NOTE: PT A MANQUÉ DOSES (PHARMACIE FERMÉE DURANT LE CONGÉ)", "DURANT LE", Label.DOCTOR,
     []),
    ("LOYER PAYÉ AU MOIS, BAIL À RENOUVELER", "AU MOIS", Label.DOCTOR, []),
    # a distance is no age; one English word in capitals is no facility unless someone goes
    ("pt lives 90 mi from nearest gi clinic - repeat egd", "90", Label.AGE, []),
    ("Pt is 90, lives alone, daughter nearby", "90", Label.AGE, ["90"]),
    ("SPENT WEEKENDS GUIDING BEAR HUNTS IN THE REGION", "HUNTS", Label.HOSPITAL, []),
    ("PT TRANSFERRED TO MERCY FOR REHAB", "MERCY", Label.HOSPITAL, ["MERCY"]),
])
def test_what_the_guards_keep_of_a_models_span(text: str, piece: str, label: Label,
                                               kept: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, label) == kept


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("using Richmond (RASS) / CAM-ICU per team", "Richmond", Label.HOSPITAL),
    ("pt less anxious after repositioning high fowler's.", "high fowler's", Label.HOSPITAL),
    ("Watch for Jarisch-Herxheimer, none so far.", "Jarisch-Herxheimer", Label.DOCTOR),
    ("1) d+3 auto for hodgkins (beam). low grade temps", "hodgkins", Label.HOSPITAL),
    ("pt speaks kurmanji only, granddaughter at bedside", "kurmanji", Label.PATIENT),
    ("Wife primary language Cajun French, good English", "Cajun French", Label.PERSON),
    ("Severe ARDS (Berlin: P/F <100 intermittently)", "Berlin", Label.LOCATION),
    ("MECHANICAL CPR (LUCAS) CONTINUED, TRANSPORTED TO CATH LAB.", "LUCAS", Label.LOCATION),
    ("if able to stabilize, Minnesota deflation by 24h mark per protocol", "Minnesota",
     Label.LOCATION),
    ("in halo vest for combined C1 ring (Jefferson) fx + type III dens fx", "Jefferson",
     Label.LOCATION),
    ("CT this AM w/ stable ventricles (Evans index 0.26) -> EVD removed", "Evans",
     Label.LOCATION),
    ("am labs sent 0430 from hickman white lumen.", "hickman white lumen", Label.LOCATION),
    ('20 yo f at a pool party, took "molly," drank "gallons of water,"', "molly",
     Label.PATIENT),
    ("ABG 7.28/52/66. P/F 110. SEVERE ARDS PER BERLIN. MD AWARE.", "BERLIN", Label.DOCTOR),
    ("#3: S/P PERF DU, GRAHAM PATCH POD 2. FEVER 38.9 AT 0300", "DU", Label.PERSON),
])
def test_what_the_allowlist_takes_back(text: str, piece: str, label: Label) -> None:
    assert recovered_by_the_allowlist(text, piece, label)


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("per Dr. Fowler's note, plan unchanged", "Fowler", Label.DOCTOR),
    ("wife Sarah Baptist called for update", "Sarah Baptist", Label.PERSON),
    ("son Lucas at bedside, updated re: plan", "Lucas", Label.PERSON),
    ("dad took Molly home after visiting hours", "Molly", Label.PERSON),
])
def test_a_name_a_term_shares_stays_a_name(text: str, piece: str, label: Label) -> None:
    assert not recovered_by_the_allowlist(text, piece, label)
