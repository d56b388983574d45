"""Where a kept span begins and ends: never on a joining word, a day, a department, a reporting
verb, a clock or the next person's credential (engine/resolution/boundaries.py). The guards
judge the span as proposed; these cuts only narrow what they keep."""

from __future__ import annotations

import pytest

from engine.core.domain import Document
from engine.core.labels import Label
from engine.pipeline import build_pipeline
from tests.engine.resolution.charting import kept_of_a_models_span

P, D, H, L = Label.PERSON, Label.DOCTOR, Label.HOSPITAL, Label.LOCATION


@pytest.mark.parametrize(("text", "piece", "label", "expected"), [
    ("WIFE DOROTHY, DTRS ANNE AND KATHLEEN AT BEDSIDE", "ANNE AND KATHLEEN", P,
     ["ANNE", "KATHLEEN"]),
    ("Parents Greg & Allison Vandermolen here", "Greg & Allison Vandermolen", P,
     ["Greg", "Allison Vandermolen"]),
    ("with the housestaff team (Drs. Quince and Lamb) and agree", "Quince and Lamb", D,
     ["Quince", "Lamb"]),
    ("UNRESTRAINED DRIVER ON RT 9 NEAR OXBOW SAT NIGHT, MEDFLIGHT", "OXBOW SAT", L, ["OXBOW"]),
    ("ADMITTED 3/14 FROM MERCY ED IN DUNFORTH W/ UROSEPSIS", "MERCY ED", H, ["MERCY"]),
    ("arrived to unit 1540 from tavish general ed on stretcher", "tavish general ed", H,
     ["tavish general"]),
    ("a trauma activation from Tansey via Ridgeway Ave", "Tansey via", L, ["Tansey"]),
    ("referral sent to Larkspur LTAC and Holloway", "Larkspur LTAC and", H, ["Larkspur LTAC"]),
    ("DISCUSSED GREYHOLM LTAC AND ST. OSWIN'S", "DISCUSSED GREYHOLM LTAC", H, ["GREYHOLM LTAC"]),
    ("PACER VIA R IJ BY DR VANTERPOOL 1930, RATE 70", "VANTERPOOL 1930", D, ["VANTERPOOL"]),
    ("code status - nurse Yolanda faxing MOLST. Dtr reached", "Yolanda faxing", P, ["Yolanda"]),
    ("WIFE MARGUERITE TOURED GREYHOLM SAT, AGREEABLE", "MARGUERITE TOURED", P, ["MARGUERITE"]),
    ("rounds and agree w/ Dr. Rahimi note. Key points", "Rahimi note", D, ["Rahimi"]),
    # a role, clergy or step-relation before a name; its possessive; a sentence's period
    ("COURT-APPOINTED GUARDIAN IS ATTY WINSLOW PRATT, REACHED AT", "ATTY WINSLOW PRATT", P,
     ["WINSLOW PRATT"]),
    ("r: paged sw jen who met w/ son 1545", "sw jen", P, ["jen"]),
    ("State police (Trooper Nadeau, barracks (603) 555-0199)", "Trooper Nadeau", P,
     ["Nadeau"]),
    ("left message for fr donnelly at parish office", "fr donnelly", P, ["donnelly"]),
    ("MOTHER TRISHA AND STEPDAD RAY ARRIVED 0330", "STEPDAD RAY", P, ["RAY"]),
    ("pulled at 1530 by Dr. Mbeki's fellow, hemostasis", "Mbeki's", D, ["Mbeki"]),
    ("at noc. Discussed w/ Dr. Ng.", "Ng.", D, ["Ng"]),
    ("lives in a 2nd floor walk-up at 44 Ashmont Terrace. Widowed x 6 yrs.",
     "44 Ashmont Terrace.", L, ["44 Ashmont Terrace"]),
])
def test_edges_that_are_not_the_identifier_go(text: str, piece: str, label: Label,
                                              expected: list[str]) -> None:
    assert kept_of_a_models_span(text, piece, label) == expected


@pytest.mark.parametrize(("text", "piece", "label"), [
    ("Pharmacy: Costco Pharmacy, 591.700.4089", "Costco Pharmacy", H),
    ("f/u w/ dr keane at pemberly jct cardiology 1 wk", "pemberly jct cardiology", H),
    ("urgent care at 2551 Foster Via, New Nicholasland", "2551 Foster Via", L),
    ("Emitido por: Dr. Andrés Rodríguez Lorenzo 333, Medical Village", "Rodríguez Lorenzo 333",
     D),
    ("visited today by Marta Eve, her niece", "Marta Eve", P),  # a listed name, not the evening
    ("seen by Anna K. this am", "Anna K.", P),
    ("f/u at Conway Inc. next week", "Conway Inc.", H),
    ("lives on Tolland St. with her son", "Tolland St.", L),
])
def test_names_that_end_in_such_words_stay_whole(text: str, piece: str, label: Label) -> None:
    assert kept_of_a_models_span(text, piece, label) == [piece]


def test_a_title_starts_no_credentialed_name() -> None:
    """"Dr Osei, RN Kate": the RN is Kate's; the doctor is "Osei", without his title."""
    text = "family mtg in conference rm B w/ attending Dr Osei, RN Kate, and SW."
    spans = build_pipeline(ner=False, policy="hipaa").run(Document.from_text(text)).active
    covered = {text[s.start:s.end] for s in spans}
    assert "Osei" in covered
    assert not any(c.startswith("Dr") for c in covered)


@pytest.mark.parametrize(("text", "piece", "label", "expected"), [
    ("pt hoping to go to pinecrest rehab after dc.", "pinecrest", H, "pinecrest rehab"),
    ("REFERRED TO STOKEMERE COMMUNITY HEALTH CTR (207) 555-0194", "STOKEMERE", H,
     "STOKEMERE COMMUNITY HEALTH CTR"),
    ("transferred from St. Agatha's Home in Larkmoor", "St. Agatha's", H, "St. Agatha's Home"),
    ("81 YO F FROM LINDEN CROSSING NURSING & REHAB", "LINDEN CROSSING NURSING", H,
     "LINDEN CROSSING NURSING & REHAB"),
    ("SHE WANTS PT TO GO BACK TO OLD MILL NURSING AND REHAB NOT A NEW PLACE", "OLD MILL", H,
     "OLD MILL NURSING AND REHAB"),
    ("she is staying at the anchor inn tonight", "anchor", L, "anchor inn"),
    ("77 YO F SENT FROM GOLDEN ACRES NURSING HOME (DORCHESTER)", "GOLDEN ACRES", H,
     "GOLDEN ACRES NURSING HOME"),
    ("BROUGHT IN BY EMS FROM HARROW PINES NURSING HOME AFTER A FALL", "HARROW PINES NURSING", H,
     "HARROW PINES NURSING HOME"),
    # ... but a head it has already, a role, a service or the patient's own home stay out
    ("Pt lives at Seaview Manor assisted living. Niece", "Seaview Manor", H, "Seaview Manor"),
    ("Bed per HFCH nursing supervisor Nadine", "HFCH", H, "HFCH"),
    ("seen by tavish general surgery this am", "tavish", H, "tavish"),
    ("lives in tern harbor home w/ wife", "tern harbor", L, "tern harbor"),
    ("asked about transfer to Univ. Hosp of Caldermoor for a second opinion", "Univ", H,
     "Univ. Hosp"),
    ("DDM, DEMENTIA, FROM GLENHAVEN NURSING CENTER. ON ARRIVAL", "GLENHAVEN NURSING", H,
     "GLENHAVEN NURSING CENTER"),
])
def test_a_facility_takes_in_its_head_word(text: str, piece: str, label: Label,
                                           expected: str) -> None:
    """"pinecrest rehab": the head word the model left outside is part of the name."""
    assert kept_of_a_models_span(text, piece, label) == [expected]
