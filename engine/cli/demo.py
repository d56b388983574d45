"""`clearnote demo`: a built-in synthetic letter, de-identified offline."""

from __future__ import annotations

import argparse
from typing import Any

from engine.cli.common import EXIT_OK, add_detection_options, session_from
from engine.core.domain import Document


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("demo", help="de-identify a built-in synthetic letter")
    add_detection_options(p)
    p.set_defaults(func=cmd_demo)


DEMO_LETTER = """\
Riverside Family Clinic
1450 Oakwood Avenue, Edmonton, AB T5K 2M4
Tel (780) 555-0142   Fax (780) 555-0199

March 14, 2024

Re: Margaret Ellison   DOB: 07/22/1958   PHN: 9876 54321   MRN: 00448812

Dear Dr. Okafor,

Thank you for seeing Mrs. Ellison, a 65-year-old woman with seropositive rheumatoid
arthritis diagnosed in 2019, now with worsening synovitis of both wrists despite
methotrexate 20 mg weekly and folic acid 1 mg daily. CRP 34 mg/L on 03/02/2024.
She reports a positive family history of Parkinson's disease. Her daughter, Sarah
Ellison, can be reached at sarah.ellison@example.com or 780-555-0173.

Sincerely,
Dr. Thomas Brandt, MD
"""


def cmd_demo(args: argparse.Namespace) -> int:
    session = session_from(args)
    doc = Document.from_text(DEMO_LETTER, id="demo")
    result, deid = session.process(doc)
    print("ClearNote demo: a synthetic referral letter, de-identified offline.\n")
    print(f"Policy: {result.policy}   detectors: {', '.join(result.detectors)}\n")
    print("--- original ---")
    print(doc.text)
    print("--- de-identified ---")
    print(deid.text)
    print("--- findings ---")
    for span in result.active:
        print(f"  {span.label.value:<9} [{span.start:>4}, {span.end:>4})  "
              f"{span.source.value:<10} {span.confidence:.2f}  {span.detector}")
    print("\nNext: `clearnote deid --help`, `clearnote detect --help`.")
    return EXIT_OK
