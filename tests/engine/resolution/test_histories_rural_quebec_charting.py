"""Golden cases from admission histories, transfer summaries and rural US Southwest, Ontario
and Quebec ICU notes with sparse PHI (issue 26, dev sets 25 and 26): Quebec's institutions by
their kind (CHSLD, CLSC, CH, Hôpital), its "Usager:" field, a name the staff know a patient
as; grades and waves named after people or places (West Haven 1, Osborn J waves, Forrest
IIa), a dose's frequency inside no street. Both sides; synthetic text only; rules and
dictionaries through the real pipeline."""

from __future__ import annotations

import pytest

from engine.pipeline import Pipeline
from tests.engine.resolution.charting import assert_always_a_span, assert_never_a_span


@pytest.mark.parametrize(("text", "piece"), [
    ("86 YO M, RESIDENT OF CHSLD LES TROIS-BATTURES, SENT IN BY EMS",
     "CHSLD LES TROIS-BATTURES"),
    ("ATV VS TREE, TRANSFERRED FROM CH DE LA BAIE-BRÛLÉE AFTER CT.", "CH DE LA BAIE-BRÛLÉE"),
    ("Pt followed at home by CLSC des Îles-du-Chenal for nursing", "CLSC des Îles-du-Chenal"),
    ("adm note rn. 83 yo f from chsld saint-joachim-du-cap, coffee ground emesis",
     "chsld saint-joachim-du-cap"),
    ("transferred to Hôpital Sainte-Croix today", "Hôpital Sainte-Croix"),
    ("SOINS INTENSIFS\nUSAGER: BÉLANGER-NTUMBA, JOSÉPHINE   RAMQ: BELJ 6752 0914",
     "BÉLANGER-NTUMBA, JOSÉPHINE"),
    ("d: pt known to staff as junior, dm2, admitted w/ sepsis", "junior"),
])
def test_identifiers_are_always_spans(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_always_a_span(hipaa, text, piece)


@pytest.mark.parametrize(("text", "piece"), [
    ("NHELMETED ATV VS TREE, TRANSFERRED FROM CH DE LA BAIE-BRÛLÉE AFTER CT.", "AFTER"),
    ("CLSC nurse to visit Monday; the CHSLD will call back", "nurse"),
    ("the CHSLD will call back with a bed date", "will"),
    ("FIRST CHOICE IS A HOME NEARBY (CLOSE TO WIFE) — NO TRACH CAPACITY", "CLOSE"),
    ("known as a heavy drinker by the team", "heavy"),
    ("CH 2 stable, no new effusion", "CH 2"),
    ("RIFAXIMIN 550 BID. NOW WEST HAVEN 1, ASTERIXIS MINIMAL.", "WEST HAVEN"),
    ("ECG: sinus brady 52, Osborn J waves, QTc 510.", "Osborn"),
    ("duodenal ulcer w/ visible vessel (forrest iia), clipped x3", "forrest"),
    ("septic shock from VAP (Pseudomonas) after intubation", "VAP"),
    ("78 yo F admitted from CHSLD w/ urosepsis, now HD 3", "CHSLD"),
    ("Skin tear L forearm (old, from CHSLD), Steri-strips intact.", "CHSLD"),
    ("HOLD CHSLD MEDS (DONEPEZIL, AMLODIPINE)", "CHSLD MEDS"),
    ("Pt receives primary care at the IHS clinic; has Medicaid", "IHS"),
    ("ENCEPHALOPATHY (ASTERIXIS). MEETS KING'S COLLEGE CRITERIA IN PROGRESS", "KING'S"),
    ("NOT YET MEETING KING'S COLLEGE CRITERIA (NO ENCEPHALOPATHY)", "MEETING"),
])
def test_charting_is_never_a_span(text: str, piece: str, hipaa: Pipeline) -> None:
    assert_never_a_span(hipaa, text, piece)
