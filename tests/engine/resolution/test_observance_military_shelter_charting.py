"""Golden cases from ICU notes with sparse PHI written around religious observance (an Orthodox
Jewish community, a Catholic system), by students, in the Mountain West, in a military medical
center and for people without homes (issue 26, dev sets 40-42): feasts that name a day, clergy
and service members by title or rank are PHI, the title or rank is not; observance words,
religious orders, prayers, drains, mountain-rescue and military shorthand, a unit's clinic, a
duration after an ID cue, the patient's own pharmacy, a catheter's line and what a patient has
with them are not. Both sides; synthetic text only; rules and dictionaries through the real
pipeline, a model's spans through the guards."""

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
    ("found down at a friend's house late night of purim after heavy etoh", "purim"),
    ("PT ADMITTED OVER PESACH W/ AMS, FOUND TO HAVE SEVERE HYPONATREMIA", "PESACH"),
    ("4 yo m w/ flame burns from a bonfire on lag b'omer, ~18% tbsa", "lag b'omer"),
    ("HTN, on chlorthalidone, who fasted on Tisha B'Av during a heat wave", "Tisha B'Av"),
    ("Pt requested ashes for Ash Wednesday; chaplain distributed ashes", "Ash Wednesday"),
    ("fell from a ladder in the family sukkah the afternoon before Sukkos.", "Sukkos"),
    ("Spiritual Care paged, Sr. Celestine brought Eucharist at 1500", "Celestine"),
    ("NEURO ICU PROGRESS NOTE\nSGT WHITLOCK HD#3 S/P MOTORCYCLE CRASH", "WHITLOCK"),
    ("Case discussed w/ MAJ Lindqvist (attending). Nursing: neuro checks", "Lindqvist"),
    ("ICU ACCEPT NOTE\nCPL BOATENG, TRANSFERRED FROM THE OSH", "BOATENG"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("Case discussed w/ MAJ Lindqvist (attending).", "MAJ"),
    ("placed 14 Fr. Foley, draining clear yellow", "Foley"),
    ("R W/ SWAN (D/C TODAY), L RADIAL A-LINE, 2 MEDIASTINAL CT + 1 L PLEURAL CT, FOLEY",
     "2 MEDIASTINAL CT"),
    ("updated by team at bedside.\nevents: 1400 art line damped waveform, flushed", "1400 art"),
    ("MED LIST UNKNOWN - PHARMACY TO CALL PT'S PHARMACY IN AM.", "PT'S PHARMACY"),
    ("PE (provoked, likely 3 mo) and transition to DOAC once stable.", "DOAC"),
    ("IT; REFERRAL UPDATED.\nBELONGINGS W/ PT: GLASSES, ROSARY, CELL PHONE", "GLASSES"),
    ("2h call renal fellow. Full code.\nBed 2: PFC, spice ingestion, agitated", "PFC"),
    ("Transfer Note\nPt: SPC, burned in motor pool fire (fuel ignition)", "SPC"),
    ("FEVERS TO 40; SEEN AT TROOP MEDICAL CLINIC 2 DAYS AGO, DX VIRAL", "TROOP"),
    ("+ETOH (BAL 0.19 AT OSH). TRANSFER TO MTF FOR CONTINUITY/TRICARE.", "MTF"),
    ("Monitor: BMP daily, UOP.\nDuration per ID: 7-14 days based on clinical response.", "7-14"),
    ("3. NMB: cisatracurium 48h max, Hofmann elimination so safe w/ organ dysfunction",
     "Hofmann"),
    ("ice + elevation on braun frame.\nskin: l foot swelling stable", "braun"),
    ("amnestic to event. Lichtenberg figures (fern pattern) L shoulder", "Lichtenberg"),
    ("shelter bed held x 3 more days. call bell in reach. plan: floor", "bell"),
    ("pt's younger sister, a retired Sister of St. Joseph, arrived", "Joseph"),
    ("religious sister, member of the Sisters of Charity; lived in the motherhouse", "Charity"),
    ("Apostolic Pardon at 1120. Family sang the Salve Regina. Older son", "Regina"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece", "label", "kept"), [
    ("re-eval. per dunn-alvarez (cards), low threshold for", "per", Label.DOCTOR, []),
    ("Family rav, Rabbi Yisroel Brachfeld, joined by speakerphone", "Rabbi", Label.DOCTOR, []),
    ("Family rav, Rabbi Yisroel Brachfeld, joined by speakerphone", "rav", Label.PERSON, []),
    ("Command: 1SG Brannigan and company cmdr notified", "1SG", Label.PERSON, []),
    ("Command: 1SG Brannigan and company cmdr notified", "1SG Brannigan", Label.PERSON,
     ["Brannigan"]),
    ("Social: MAJ Ferreira-Lund identifying close contacts", "MAJ Ferreira-Lund", Label.DOCTOR,
     ["Ferreira-Lund"]),
    ("Flown here after short ground carry to LZ.\nOvernight: extubated", "LZ", Label.HOSPITAL,
     []),
    ("referred to Occ Health for ppx.\nFamily: mother updated", "Occ Health", Label.HOSPITAL, []),
    ("PER OLSEN MD AT BEDSIDE", "OLSEN", Label.DOCTOR, ["OLSEN"]),
    ("71F, UNHOUSED SINCE SUMMER AFTER DEATH OF SPOUSE", "SUMMER", Label.DATE, []),
    ("Pt is a college student on spring break, tumbled ~150 ft", "spring break", Label.DATE, []),
    ("fell from a roof in summer 2019 per family", "summer 2019", Label.DATE, ["summer 2019"]),
    ("dog is being kept at the warming centre kennel. pt reassured.", "kennel",
     Label.LOCATION, []),
    ("post-mortem care done, to morgue after family left.", "morgue", Label.LOCATION, []),
    ("son lives in cedar hollow, 2h drive", "cedar hollow", Label.LOCATION, ["cedar hollow"]),
    ("pt from milltown, retired farmer", "milltown", Label.LOCATION, ["milltown"]),
    ("Pastor Okafor from their church visited", "Pastor", Label.PERSON, []),
    ("spoke w/ Mrs. Deacon at bedside, questions answered", "Deacon", Label.PERSON, ["Deacon"]),
    ("daughter updated; Mr. Cantor resting comfortably", "Cantor", Label.PATIENT, ["Cantor"]),
])
def test_what_the_guards_keep_of_a_models_span(text: str, piece: str, label: Label,
                                               kept: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, label) == kept


@pytest.mark.parametrize(("text", "piece"), [
    ("will not use the phone or call light on Shabbos; made aware", "Shabbos"),
    ("bikur cholim volunteer dropped off kosher food for her", "kosher food"),
    ("Family also requested a Kohen in the family be told in advance", "Kohen"),
    ("FAMILY RECITED TEHILLIM AT BEDSIDE IN EVENING.", "TEHILLIM"),
    ("A family member (shomer) will remain w/ the body", "shomer"),
])
def test_observance_is_no_name_or_place(text: str, piece: str) -> None:
    assert recovered_by_the_allowlist(text, piece, Label.PERSON)
