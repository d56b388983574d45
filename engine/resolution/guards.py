"""Resolution guards that hold for every detector (rules, dictionaries, ONNX NER, LLM).

Applied by the pipeline to the union of candidates, before the allowlist and the overlap
policy. Pure functions over (text, spans):

- a span has a letter or a digit (model spans are trimmed of edge punctuation first);
- a DATE parses as a date: a valid month/day, a month or weekday name, or a year in a date
  context; a time of day, a ratio, a lab or hemodynamic string, a dose, a BP or a score is not;
- numbers inside measurement strings (``7.43/41/76/28``, ``BP 120/80``, ``5 mg``, ``@2300``)
  are never PHI, unless a format rule with a checksum or a cue proposed them (IDs, phones);
- a clinical word that is also a name ("Endo", "MAE") is a name only in name context;
- names take their initials ("Anna K.", "J.R. Smith"), IDs their letter prefixes ("KX-448120");
- no span crosses a blank line: a blank line ends every identifier (a signature block's
  "Dr. Marlo" and the next paragraph's first words are two things), so a span that crosses
  one is split there and each piece is trimmed of whitespace and guarded on its own; nor a
  line break (but addresses), a field label or a clinical word beside it (boundaries.py);
- the word after ``pt`` is a name only with name evidence, clinical shorthand alone is no
  name, place or facility, section words are never PHI, nor the verb of an order to reach a
  clinician ("Page MD prn") (shorthand.py);
- a WEB candidate has the shape of an address (validators.web_shape): "hr.no" has none;
- a word before a clinician's role that describes the role is no name ("Covering MD",
  "floor RN", "day rn") (roles.py); a kept span loses the joining words, days and departments
  at its edges ("Tansey via", "MERCY ED") and takes in a facility's head word ("pinecrest
  rehab") (boundaries.py); a kind of institution is no name ("regional center",
  generic_places.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from itertools import chain

from engine.core.domain import Document, Source, Span
from engine.core.labels import NAME_LABELS, Label
from engine.detectors.dictionary.context import (
    clinical_words,
    has_name_context,
    has_strong_name_context,
    is_english,
)
from engine.detectors.regex.fragments import STAFF_AFTER, WEEKDAY
from engine.detectors.regex.validators import web_shape
from engine.resolution.boundaries import pieces, without_edge_words
from engine.resolution.clinical_things import (
    drug_by_its_stem,
    eponym,
    graft_notation,
    named_thing,
    species,
)
from engine.resolution.edges import (
    in_caseless_line,
    trim,
    whole_identifier,
    whole_word,
    with_hyphenated_part,
    with_initials,
    without_age_after,
)
from engine.resolution.foreign_words import (
    common_phrase,
    foreign_context,
    foreign_document,
    function_words_only,
    glossed_quotation,
    quoted_foreign,
    titled,
)
from engine.resolution.generic_places import (
    after_a_town,
    capital_english_facility,
    common_word_place,
    drug_as_a_place,
    facility_of_charting_words,
    floor_wing_as_a_place,
    generic_institution,
    icu_words_as_a_place,
    lower_case_english_place,
    quantity_as_a_place,
    state_after_town,
)
from engine.resolution.measurements import (
    looks_like_date,
    measured_range,
    measurement_ranges,
    table_cells,
)
from engine.resolution.model_numbers import age_of_a_model_number, model_number_is_no_identifier
from engine.resolution.name_extent import (
    with_given_name_before_age,
    with_given_name_prefix,
    with_glottal_stops,
)
from engine.resolution.names_as_words import (
    clinical_term_as_name,
    half_of_a_name,
    letter_not_a_name,
    lower_case_english_name,
    people_as_a_name,
    pronoun_as_name,
    relation_before_a_name,
    saints_name,
    service_told,
    thing_given_to_a_relation,
    topic_after_re,
    topic_of_a_title,
    word_between_age_and_sex,
)
from engine.resolution.neighbours import (
    WORD_LABELS,
    adjacent,
    beside_a_name,
    beside_any,
    by_label,
    part_of_a_longer_name,
)
from engine.resolution.places import (
    FACILITY_HEADS,
    contact_core,
    facility_head_before,
    place_without_a_count,
    with_facility_head,
)
from engine.resolution.roles import (
    determiner_before_a_name,
    english_word_before_a_role,
    per_before_a_role,
    street_before_title,
)
from engine.resolution.shorthand import (
    after_pt_without_name,
    clinical_or_english,
    contact_order,
    is_shorthand,
    section_ranges,
    shorthand_alone,
    within_section_words,
)
from engine.resolution.telegraphic import (
    capital_of_a_sentence,
    clock_entry,
    english_word_in_capitals,
    in_a_nickname_slot,
    inside_a_shorthand_word,
    lone_letter,
    measured_word,
    modal_verb,
    past_tense_verb,
    section_letter,
    shorthand_in_a_name,
    side_and_device,
    size_or_day,
    title_alone,
    weekday_as_a_name,
)

# Labels whose rules check a format, a checksum or a cue ("6 months old" is an age, though
# "6 months" is a quantity): their numbers stand on their own.
_FORMAT_LABELS = frozenset({Label.ID, Label.PHONE, Label.WEB, Label.AGE})
_LETTERED = NAME_LABELS | {Label.HOSPITAL}
# A number after a preposition alone is a setting or a count ("PEEP BACK TO 5"), no ward.
_FUNCTION_WORD_BEFORE = re.compile(r"(?i:\b(?:to|at|from|of|by|x|on)[ \t]+\Z)")
# An English word before a number, itself after no word of moving: "(admit 84, peak 103)".
_MEASURED_WORD_BEFORE = re.compile(r"(?:^|[^\w \t]|(?<!to|at|on|in)(?<!from)[ \t])[ \t]*"
                                   r"(?:admit|peak|nadir|baseline|max|min|goal|dry|prior"
                                   r"|current|now|was|today|yesterday)[ \t:]+\Z", re.I)
_CODE = re.compile(r"\d{2,}(?:-\d{2,})+")  # dash-joined digit groups: postcodes, phone pieces
_PAIR = re.compile(r"\d{1,2}-\d{1,2}")
# "5 mg", and the two strengths of a combined tablet ("Bactrim 400/80 Tab PO BID #30").
_DOSE_START = re.compile(r"(?i:\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?)?[ \t]*(?:mg|mcg|ml|g|units?"
                        r"|tabs?|caps?|puffs?|mmol|meq|iu|%)\b)")
_DOTTED_WORDS = re.compile(r"[A-Za-z][\w\-]*(?:\.[A-Za-z][\w\-]*)+")
_NUMBER_AFTER = re.compile(r"^[ \t,]*\d{3,}(?!\d|-\d{4}\b)")  # not a shift: "Progress 0700-1900"
_ACRONYM = re.compile(r"[A-Z]{2,6}")
_MOVE_BEFORE = re.compile(r"(?i:\b(?:transfer(?:red)?|tx'?d|sent|send|back|return(?:ed)?|d/c'?d?"
                          r"|discharged?|admitted|came|arrived|accepted|bed)[ \t]+(?:to|from|at)"
                          r"[ \t]+(?:the[ \t]+)?\Z)")
_COMPANY_SUFFIXES = frozenset({"inc", "llc", "ltd", "corp", "co", "plc", "lp", "pc", "ag"})
_VENT_START = re.compile(r"\d{2,4}[ \t]*[xX][ \t]*\d{1,2}\b")
_NOT_A_NAME_FIELD = re.compile(r"(?i:\b(?:sexo|sex|gender|g[ée]nero|edad|age|dob|nhc|mrn|cp"
                               r"|cipa|nass)[ \t]*[:=][ \t]*)\Z")
# "País: España", "Localidad/ Provincia: Madrid": a model's name there is a place.
_PLACE_FIELD = re.compile(r"(?i:\b(?:pa[ií]s|country|localidad|provincia|ciudad|city|town"
                          r"|municipio|state)[ \t]*[:=][ \t]*)\Z")
_TITLE_THEN_VERB = re.compile(r"(?i:\b(?:dr|md|ho|np|rn)\.?[ \t]+(?:aware|notified|paged|updated"
                              r"|called|informed|present|here|in|made|at|order|orders|states"
                              r"|stated|says|said|reports|reported|feels|thinks|agrees|wants"
                              r"|recommends|verifies|verified)\Z)")  # "DR STATES PT HAD"
_SENTENCE_START = re.compile(r"(?:\A|[.!?;:][ \t]+|\n[ \t]*)\Z")

# A town's abbreviated head: "from Cd. Juárez" (Ciudad), "Ft. Stockton", "Mt. Vernon".
# Not after a capitalised word, whose name may hold the abbreviation ("Eagle Mt. Rd").
_TOWN_HEAD_BEFORE = re.compile(r"(?m:^|[^\w.\s][ \t]*|(?<![^\W\d_])[a-z][\w'’]*[ \t]+)"
                               r"((?:Cd|Cdad|Ft|Mt|CD|FT|MT)\.[ \t]?)\Z")
_TOWN_LABELS = NAME_LABELS | {Label.LOCATION}
_FACILITY_END = re.compile(rf"(?i:\s(?:{'|'.join(FACILITY_HEADS)}|pharmacy)\.?$)")


def guard(doc: Document, spans: Iterable[Span]) -> tuple[list[Span], list[Span]]:
    """Split candidates into (kept, possibly reshaped; dropped by a guard)."""
    text = doc.text
    measures: list[tuple[int, int]] | None = None
    sections: list[tuple[int, int]] | None = None
    kept: list[Span] = []
    dropped: list[Span] = []
    spans = list(spans)
    beside = by_label(spans)
    for proposed in spans:
        for span in pieces(text, proposed):
            shaped = _shape(text, span)
            if shaped is None:
                dropped.append(span)
                continue
            if measures is None:
                measures = measurement_ranges(text)
                sections = section_ranges(text)
            if _rejected(text, shaped, measures) or _not_a_word_identifier(
                    text, shaped, sections or [], beside):
                dropped.append(span)
            else:
                kept.append(with_facility_head(text, with_given_name_before_age(
                    text, with_given_name_prefix(
                        text, with_glottal_stops(text, without_edge_words(text, shaped))))))
    return kept, dropped


def _shape(text: str, span: Span) -> Span | None:
    span = age_of_a_model_number(text, span)
    start, end = span.start, span.end
    if span.source in (Source.NER, Source.LLM):
        start, end = trim(text, start, end)
        if span.label in (Label.WEB, Label.PHONE):
            start, end = contact_core(text, start, end, span.label is Label.WEB)
        elif span.label in (Label.LOCATION, Label.HOSPITAL):
            start, end = place_without_a_count(text, start, end)
    if end <= start or not any(c.isalnum() for c in text[start:end]):
        return None
    if span.source in (Source.NER, Source.LLM) and span.label in (Label.DATE, Label.ID) \
            and _PAIR.fullmatch(text[start:end]) and not looks_like_date(text, start, end):
        return None  # "night summary 19-07", "ICP 14-18": a shift or a range, no code
    if span.label is Label.DATE and span.source is not Source.RULE \
            and _CODE.fullmatch(text[start:end]) \
            and not looks_like_date(text, start, end):
        # "53-320", "28-64-66-98": a model's DATE that is no date but a code stays PHI.
        span = replace(span, label=Label.ID, subtype=None)
    if span.label in NAME_LABELS and (head := facility_head_before(text, start, end)) >= 0:
        span, start = replace(span, label=Label.HOSPITAL, subtype=None), head
    elif span.label in _TOWN_LABELS and (town := _TOWN_HEAD_BEFORE.search(
            text, max(0, start - 30), start)):
        span, start = replace(span, label=Label.LOCATION, subtype=None), town.start(1)
    elif span.label in NAME_LABELS and _FACILITY_END.search(text[start:end]):
        span = replace(span, label=Label.HOSPITAL, subtype=None)  # "Lakeside Hosp", a place
    elif span.label in NAME_LABELS and span.source is not Source.RULE \
            and _PLACE_FIELD.search(text[max(0, start - 24):start]):
        span = replace(span, label=Label.LOCATION, subtype=None)
    if span.label in NAME_LABELS:
        start, end = with_hyphenated_part(text, *with_initials(text, start, end), half_of_a_name)
    elif span.label is Label.LOCATION:
        start, end = with_hyphenated_part(text, start, end, half_of_a_name)  # "Wilkes-Barre"
    elif span.label is Label.ID:
        start, end = whole_identifier(text, *without_age_after(text, start, end))
    elif span.label is Label.DATE and (weekday := _WEEKDAY_BEFORE.search(
            text[max(0, start - 12):start])):
        start -= len(weekday.group())  # "clinic Thursday 12/9": the date's day is part of it
    return span if (start, end) == (span.start, span.end) else span.moved(start, end)


_DISTANCE_AFTER = re.compile(r"[ \t]*(?i:mi|miles?|km|kilometers?|kilometres?)\b")
_DURATION = re.compile(r"(?i:\d{1,3}[ \-]?(?:hrs?|hours?|h|min|mins|days?|nights?|wks?|weeks?|mos?"
                       r"|months?|yrs?|years?))")
_WEEKDAY_BEFORE = re.compile(rf"(?i:(?<![\w/])(?:{WEEKDAY})\.?,?[ \t]+)\Z")


def _rejected(text: str, span: Span, measures: list[tuple[int, int]]) -> bool:
    covered = text[span.start:span.end]
    if span.label is Label.DATE and not looks_like_date(text, span.start, span.end):
        return True  # a code mislabelled as a date was relabelled ID before this
    if not (span.source is Source.RULE and span.label in _FORMAT_LABELS) \
            and _numeric(covered) and _digits_measured(span, covered, measures):
        return True
    if span.label is Label.LOCATION and _DOSE_START.match(covered):
        return True  # "800 MG TO TAKE EVERY 6" is not a street address
    if span.label is Label.PHONE and span.source is Source.RULE and span.subtype != "PAGER" \
            and sum(c.isdigit() for c in covered) < 7:
        return True  # a rule's number cut at a line break ("0700-1900⏎68")
    if span.label is Label.PHONE and measured_range(text, span.start, span.end) \
            or span.label in (Label.PHONE, Label.ID) and table_cells(text, span):
        return True  # "SVR 880-1000": a range after its cue; a table's row of numbers
    if span.label in _LETTERED and not any(c.isalpha() for c in covered) \
            and (span.label is not Label.HOSPITAL or _MEASURED_WORD_BEFORE.search(
                text[max(0, span.start - 24):span.start]) or _FUNCTION_WORD_BEFORE.search(
                text[max(0, span.start - 12):span.start])):
        return True  # "Wt 91.6kg (admit 84, peak 103)"; not a ward's "to kettle 4"
    if span.label in (Label.PHONE, Label.AGE) and not any(c.isdigit() for c in covered):
        return True  # "[ext] 4-7719": a number's cue alone
    if span.label is Label.WEB and span.source in (Source.NER, Source.LLM) \
            and not any(c in ".@:" for c in whole_word(text, span)):
        return True  # a model's "u" of "f/u": no address without a dot, an at or a colon
    if modal_verb(text, span) or span.source in (Source.NER, Source.LLM) \
            and span.label in NAME_LABELS and lone_letter(text, span):
        return True  # "Son may call", "min A for supine"
    if span.label is Label.LOCATION and _VENT_START.match(covered):
        return True  # "600 X 14, SIMV ..." starts with a vent setting, not a house number
    if span.label is Label.AGE and (text[max(0, span.start - 1):span.start] == "#"
                                    or _DISTANCE_AFTER.match(text, span.end)):
        return True  # "Tab PO BID #30": a count to dispense; "lives 90 mi from": a distance
    if span.label is Label.ID and _DURATION.fullmatch(covered):
        return True  # "72-hr notification window", "3-night qualifying stay": a duration
    if span.label is Label.ID and span.source in (Source.NER, Source.LLM) \
            and not any(c.isdigit() for c in text[span.start:span.end]):
        return True  # "MRN" itself, the "P" of "S/P": an identifier has digits
    if span.label is Label.ID and clock_entry(text, span):
        return True  # "2217 Code team arrived", "chart.\n\n1100 - To bronch"
    if span.source in (Source.NER, Source.LLM) and model_number_is_no_identifier(text, span):
        return True
    if span.source in (Source.NER, Source.LLM) and size_or_day(text, span):
        return True  # "POD #2", "Trach #8 portex": a day or a size
    if span.label in WORD_LABELS and inside_a_shorthand_word(text, span):
        return True  # "PaO" of "PaO2", the "L" of "TO L&D", whoever proposed it
    if span.label in WORD_LABELS and (drug_by_its_stem(text, span)
                                       or graft_notation(text, span)
                                       or weekday_as_a_name(text, span)):
        return True  # "MILRINONE", "LIMA-LAD", "will come Sun", whoever proposed it
    if title_alone(text, span) and (span.label in NAME_LABELS or span.label in WORD_LABELS
                                    and span.source in (Source.NER, Source.LLM)):
        return True  # "Fr.", "LICSW" whoever proposed it; "R. Szymanski, LCSW" as a hospital
    if span.label in NAME_LABELS and (english_word_before_a_role(text, span)
                                      or per_before_a_role(text, span)
                                      or past_tense_verb(text, span)
                                      or measured_word(text, span)
                                      or street_before_title(text, span)):
        return True  # "Covering MD", "Chest PT", "UNCHANGED PER RN", "Canyon Dr. Report"
    if _caps_acronym_without_a_move(text, span) or _company_of_clinical_words(text, span) \
            or lower_case_english_place(text, span) or capital_english_facility(text, span) \
            or facility_of_charting_words(text, span):
        return True
    return span.label in WORD_LABELS and span.source is not Source.RULE \
        and " " not in covered.strip() and covered.strip(".").casefold() in clinical_words() \
        and not state_after_town(text, span) \
        and not has_name_context(text, span.start, span.end)


_STAFF_AFTER = re.compile(STAFF_AFTER)
# An acronym shaped like a hospital's, no word or shorthand: "TNK GIVEN AT PVH", "FROM WCH".
_HOSPITAL_SHAPED = re.compile(r"[A-Z]{1,3}(?:H|MC|HC)")


def _caps_acronym_without_a_move(text: str, span: Span) -> bool:
    """In an ALL CAPS line every word after "TO" looks like an acronym ("CT TO WS", "ADDENDUM TO
    PREV", "WIRES ATTACHED TO BOX"): there a rule's acronym is an institution only after a
    transfer ("TRANSFER TO CMC", "SENT TO MGH") or before its staff ("PER QVL RT")."""
    covered = text[span.start:span.end]
    return span.source is Source.RULE and span.label is Label.HOSPITAL \
        and bool(_ACRONYM.fullmatch(covered)) and in_caseless_line(text, span.start, span.end) \
        and (len(covered) <= 4 and not _HOSPITAL_SHAPED.fullmatch(covered)
             or is_english(covered) or is_shorthand(covered)) \
        and not _MOVE_BEFORE.search(text[max(0, span.start - 30):span.start]) \
        and not _STAFF_AFTER.match(text, span.end)


def _company_of_clinical_words(text: str, span: Span) -> bool:
    """"MIDLINE INC W/ STAPLES" (the incision) in an ALL CAPS line: a company's suffix after
    English or clinical words only."""
    words = text[span.start:span.end].split()
    return span.source is Source.RULE and span.label is Label.HOSPITAL and len(words) >= 2 \
        and words[-1].strip(".").casefold() in _COMPANY_SUFFIXES \
        and in_caseless_line(text, span.start, span.end) \
        and all(clinical_or_english(w.strip(".,")) for w in words[:-1])


def _not_a_word_identifier(text: str, span: Span, sections: list[tuple[int, int]],
                           beside: dict[Label, list[tuple[int, int]]]) -> bool:
    """Shorthand, the word after ``pt``, section words, a WEB without an address's shape."""
    if span.label is Label.WEB:
        covered = text[span.start:span.end].strip()
        if _DOTTED_WORDS.fullmatch(covered):
            return not web_shape(covered)  # "hr.no"
        # Plain words are no address ("your email is", "my account"); a piece of one the
        # model cut at no punctuation ("UshurmaDratchev" of an e-mail) stays.
        return not any(c in covered for c in "@./:") \
            and (" " in covered or is_english(covered))
    if span.label not in WORD_LABELS:
        return False
    if span.label in NAME_LABELS and (after_pt_without_name(text, span)
                                      or contact_order(text, span)):
        return True
    if _common_foreign_words(text, span, beside) or lower_case_english_name(text, span) \
            or clinical_term_as_name(text, span) or relation_before_a_name(text, span) \
            or pronoun_as_name(text, span) or saints_name(text, span) \
            or thing_given_to_a_relation(text, span) or topic_after_re(text, span) \
            or word_between_age_and_sex(text, span) or people_as_a_name(text, span) \
            or topic_of_a_title(text, span) or letter_not_a_name(text, span) \
            or service_told(text, span) \
            or span.label in NAME_LABELS and span.source in (Source.NER, Source.LLM) \
            and determiner_before_a_name(text, span):
        return True
    if span.label in NAME_LABELS and _NOT_A_NAME_FIELD.search(
            text[max(0, span.start - 24):span.start]):
        return True  # "Sexo: H.", "Age: 62": the value of a field that holds no name
    if span.label in NAME_LABELS and shorthand_in_a_name(text, span):
        return True  # "METFORMIN HELD", "R. ZOSYN", whoever proposed it
    if span.label in NAME_LABELS and eponym(text, span) or named_thing(text, span) \
            or species(text, span):
        return True  # "IVOR-LEWIS ESOPHAGECTOMY", "Hunt Hess score", "Minnesota tube"
    if span.label in NAME_LABELS and side_and_device(text, span):
        return True  # whoever proposed it: "R FEM" is no initial and a listed "Fem"
    generic = generic_institution(text, span)  # "transfer w/ regional center", not the
    if generic is not None and not beside_a_name(text, generic, beside) \
            or drug_as_a_place(text, span) or quantity_as_a_place(text, span) \
            or icu_words_as_a_place(text, span) or floor_wing_as_a_place(text, span):
        return True  # not "Hospital San Rafael"; "Pt on new Coumadin", "admit 64 kg"
    if span.source in (Source.NER, Source.LLM):
        next_to = beside_any(text, span, beside)  # "tavish general": a word of a name
        if capital_of_a_sentence(text, span, next_to) or section_letter(text, span) \
                or common_word_place(text, span, next_to) or (
                english_word_in_capitals(text, span, in_caseless_line(text, span.start, span.end))
                and not (next_to and text[span.start:span.end].islower())):
            return True
    if span.label in NAME_LABELS and _TITLE_THEN_VERB.search(
            text[max(0, span.start - 6):span.end]):
        return True  # "DR AWARE", "MD NOTIFIED": the title's verb, no name
    before = text[max(0, span.start - 4):span.start].rstrip(" \t")
    shorthand_after_comma = before.endswith(",") and is_shorthand(text[span.start:span.end]) \
        and not state_after_town(text, span) and not after_a_town(text, span, named=True)
    if span.label is Label.LOCATION and (_NUMBER_AFTER.match(text[span.end:span.end + 16])
                                         or before.endswith(",") and not shorthand_after_comma):
        return False  # "unit 1009", "apo aa 33879", "Apt. 887, Ward port": an address part
    if within_section_words(span, sections) and (
            span.label not in NAME_LABELS  # "NP Progress Note": a credential names no place
            or not has_strong_name_context(text, span.start, span.end)):
        return True
    return sum(c.isalpha() for c in text[span.start:span.end]) > 1 \
        and shorthand_alone(text, span) and not state_after_town(text, span) \
        and not part_of_a_longer_name(text, span, beside)


def _common_foreign_words(text: str, span: Span,
                          beside: dict[Label, list[tuple[int, int]]]) -> bool:
    """A model's "Fecha de Ingreso", "Ante", "paciente" as a name, "mejoría clínica" as a
    facility (foreign_words.py); not a word of a longer place ("Hospital Universitario")."""
    if span.label is Label.OTHER:
        return False
    covered = text[span.start:span.end]
    if span.source not in (Source.NER, Source.LLM):
        # A gazetteer's listed name or place that is a preposition at a sentence start of a
        # Spanish document ("Durante el seguimiento", "Como exploraciones").
        return span.detector.startswith("dictionary.") and function_words_only(covered) \
            and foreign_document(text) and not titled(text, span.start, span.end) \
            and bool(_SENTENCE_START.search(text[max(0, span.start - 3):span.start]))
    if (quoted_foreign(text, span.start, span.end)
            or span.label in NAME_LABELS and glossed_quotation(text, span.start, span.end)) \
            and not in_a_nickname_slot(text, span):
        return True  # 'she said "ya me voy"'; not 'SALINAS, REFUGIO ("CUCO")
    place = span.label not in NAME_LABELS
    # Cheapest first: most spans are no common phrase, and the document's tally is not free.
    caseless = in_caseless_line(text, span.start, span.end)
    if (place and not covered.islower()) or not common_phrase(covered, caseless=caseless) \
            or (place and not common_phrase(covered, place=True)
                and not foreign_document(text)) \
            or titled(text, span.start, span.end) \
            or not foreign_context(text, span.start, span.end):
        return False
    places = chain(beside.get(Label.HOSPITAL, ()), beside.get(Label.LOCATION, ()))
    # A person's name ends before "Correo"; a place goes on ("Hospital Universitario").
    return not any(not common_phrase(text[start:end])
                   for start, end in adjacent(text, span, places))


def _digits_measured(span: Span, covered: str, measures: list[tuple[int, int]]) -> bool:
    """Every digit of the span lies in a measurement string or a time of day."""
    near = [(a, b) for a, b in measures if a < span.end and span.start < b]
    return bool(near) and all(any(a <= span.start + i < b for a, b in near)
                              for i, c in enumerate(covered) if c.isdigit())


def _numeric(covered: str) -> bool:
    """Digits with at most unit or time letters ("0400", "4pm", "2300h", "5.8/2.71", "22kcal")."""
    letters = "".join(c for c in covered if c.isalpha()).casefold()
    return any(c.isdigit() for c in covered) and len(letters) <= 4
