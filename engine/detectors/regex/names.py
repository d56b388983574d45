"""Names announced by their template: titles, credentials, form fields, signature blocks."""

from __future__ import annotations

from typing import Any

from engine.core.labels import Label
from engine.detectors.dictionary.context import (
    ASKS_TO_BE_CALLED,
    CALLED_WHEN,
    DOCTOR_FIELDS,
    FAMILY_CALLS,
    NICKNAME_CUES,
    RELATIONS,
)
from engine.detectors.regex.fragments import (
    CREDENTIALS,
    INITIAL,
    MILITARY_RANKS,
    NAME_TOKEN,
    PERSON_NAME,
    SUBJECT_VERBS,
    YEARS_OLD,
)
from engine.detectors.regex.name_checks import (
    aged_surname,
    alias_name,
    bracketed_nickname,
    called_word,
    capitalised_word,
    caseless_named,
    family_nickname,
    listed_uncommon_name,
    named_after_mr,
    named_when_called,
    named_words,
    nickname,
    not_a_grade,
    not_a_service,
    quoted_call_me_name,
    someone_named,
    surname_word,
    unlisted_word_not_speaking,
    word_or_listed_name,
)
from engine.detectors.regex.rule import RegexRule

DOC, PAT, PER = Label.DOCTOR, Label.PATIENT, Label.PERSON
_NAME = rf"({PERSON_NAME})"
# Surname-only after a title is common ("Dr. Kumar", "Mrs. O'Neil").
# Not a title again ("doctor Dr. Ouellette"), the patient ("worsening MS. Pt and family"), a
# credential ("s. brinton ms rd cnsc") or an ordinal ("PER DR. FIRST TRACH CHANGE POD 7")
_TITLED = (r"(?!(?:Dr|Mr|Mrs|Ms|Prof|Pt|PT|Rd|RD|Rn|RN|Np|NP|Pa|PA|(?i:first|next))\b)"
           rf"({PERSON_NAME}|{NAME_TOKEN})")
_FIELD_SEP = r"[ \t]*[:\-–][ \t]*"
_SURNAME_COMMA_NAME = r"([^\W\d_][\w'’\-]+,[ \t]*[^\W\d_][\w'’\-]+)\b"  # "Doe, Quartz"
# "Pt: Mrs. Hedda Ostrowski", "known to family as Doña Chepa"
# and a monk's or an elder's honorific in Thai, Lao and Khmer families ("Phra Sombat", "Khun Mali")
_HONORIFIC = (r"(?:Mr|Mrs|Ms|Miss|Mx|Mister|Master|MR|MRS|MS|Doña|Señora|Señor|Sra|Srta"
              r"|(?i:ajahn|ajarn|phra|bhante|venerable|khun))")
_PATIENT_FIELDS = (r"patient(?:'s)?(?:\s+name)?|pt(?:\s+name)?|client(?:\s+name)?|name|re"
                   r"|usager|usag[èe]re|b[ée]n[ée]ficiaire"  # Quebec's "USAGER: BÉLANGER, J."
                   r"|resident\s+name|surname|last\s+name|first\s+name|given\s+names?")
_PERSON_FIELDS = (r"mother|father|spouse|husband|wife|partner|son|daughter|brother|sister"
                  r"|guardian|next\s+of\s+kin|emergency\s+contact|contact\s+person|caregiver"
                  r"|informant|witness|interpreter|sdm|substitute\s+decision\s+maker")
_CLOSING = (r"sincerely|regards|best\s+regards|kind\s+regards|warm\s+regards|yours\s+truly"
            r"|yours\s+sincerely|respectfully|cordially|best\s+wishes|with\s+thanks")

# The word after "prefers to be called" and the like, not in quotes.
_CALLED_WORD = rf"(?i:\b{ASKS_TO_BE_CALLED})[ \t]+([^\W\d_][\w'’\-]+)"


# The services a consultant's line names before or after the surname ("Cards: Delacroix",
# "Ndiaye, Nephrology").
_SERVICE_NAMES = (r"(?i:cards|cardiology|renal|neph|nephrology|gi|pulm|pulmonary|neuro|neurology"
                  r"|nsgy|neurosurgery|surgery|ortho|onc|oncology|heme/onc"
                  r"|palliative(?:[ \t]+care)?|psych|psychiatry|endo|endocrine|urology|ir|cts"
                  r"|infectious[ \t]+disease)")




def _after_title(name: str, title: str, confidence: float, **options: Any) -> RegexRule:
    """A person named by title, rank or office: the name after it is the span."""
    return RegexRule(name, PER, rf"{title}[ \t]+{_TITLED}", confidence, group=1, **options)


_CAPITAL_RANKS = "COL|MSG|CDR|ENS|SRA|CPO|GEN"  # also words: a column, a message
_WORD_RANKS = "|".join(r for r in MILITARY_RANKS if r.upper() not in _CAPITAL_RANKS.split("|"))


NAME_RULES: tuple[RegexRule, ...] = (
    # Not a professional interpreter: "PROF TONGAN INTERPRETER OFFERED".
    RegexRule("name.dr", DOC, rf"(?i:\b(?:dr|doctor|prof|professor))\.?[ \t]+"
              rf"(?![^\W\d_]+[ \t]+(?i:interpreter|interp)\b){_TITLED}", 0.92, group=1),
    # A title starts no name here ("Dr Osei, RN Kate": name.dr has "Osei", RN is Kate's);
    # "Deconditioned, PT eval" is the therapy, "LOS, MD AWARE" who was told.
    RegexRule("name.credential", DOC,
              rf"(?<![\w.])(?!(?i:dr|doctor|prof|mr|mrs|ms)\.?[ \t])"
              rf"{_NAME},?[ \t]+{CREDENTIALS}(?:,[ \t]*{CREDENTIALS})*(?![\w])"
              r"(?![ \t]+(?i:eval|evaluation|consult|recs|note|f/u|following|to[ \t]+see"
              r"|aware|notified|paged|called|informed|updated|not)\b)",  # "20 PPM, DO NOT"
              0.9, group=1, validate=not_a_service),
    # "CXR unchanged per Brannigan": who said so, in a note with case.
    RegexRule("name.per", DOC, r"\bper[ \t]+([A-Z][a-z]{2,}(?:-[A-Z][a-z]+)?)\b(?![ \t]*[/:])",
              0.6, group=1, validate=surname_word, on_view=False),
    # British grades before a surname: "reg achebe reviewed 0010", "SNOD Ashdown", "SpR Okoye".
    _after_title("name.grade", r"\b(?:(?i:registrar|snod|spr|sho|fy[12])|[Rr]eg|REG)\b", 0.75,
                 validate=surname_word),
    # A consultant by service, as a note's last lines give them: "Cards: Delacroix", "Ndiaye,
    # Nephrology" (not "Cards: following", "ID: Chamorro M").
    RegexRule("name.service_line", DOC,
              rf"(?m:^[ \t]*(?:{_SERVICE_NAMES})[ \t]*:[ \t]*(?:Dr\.?[ \t]+)?"
              r"([A-Z][a-z]+(?:-[A-Z][a-z]+)?)[ \t]*$)", 0.7, group=1, validate=surname_word,
              on_view=False),
    RegexRule("name.signed_service", DOC,
              rf"(?m:^[ \t]*([A-Z][a-z]+(?:-[A-Z][a-z]+)?),[ \t]*(?:{_SERVICE_NAMES})[ \t]*$)",
              0.7, group=1, validate=surname_word, on_view=False),
    # A resident by year of training: "- achebe, nsgy pgy-2", "DR. KINLEY, PGY-1".
    RegexRule("name.pgy", DOC,
              r"(?<![\w'’\-])([^\W\d_][\w'’]+(?:-[^\W\d_][\w'’]+)?),[ \t]*(?:[a-z]{2,8}[ \t]+)?"
              r"(?i:pgy)[ \t\-]?[1-8]\b", 0.75, group=1, validate=not_a_service),
    RegexRule("name.honorific", PER,
              rf"\b(?!M[Rr]\b){_HONORIFIC}\.?[ \t]+{_TITLED}", 0.9, group=1),
    # Police and custody officers by rank: "OFC. BRANDYWINE AND OFC. SALAZAR-KEENE", "Det.
    # Kaminski from the county shooting unit", "Trooper Nadeau".
    _after_title("name.officer", r"\b(?:(?:Ofc|Det|Sgt|Cpl|Tpr)\.|(?:Officer|Detective|Deputy"
                 r"|Trooper|Sergeant|Corporal)\b)", 0.85),
    # Service members by rank: "SGT WHITLOCK HD#3", "Case discussed w/ MAJ Lindqvist", "pfc
    # oakes" (capitals for the ranks that are also words: "COL", "MSG", "CDR").
    _after_title("name.rank", rf"\b(?:(?i:{_WORD_RANKS})|{_CAPITAL_RANKS})", 0.8,
                 validate=surname_word),
    # Clergy by title: "Sr. Celestine brought Eucharist", "Rabbi Kornblit", "Fr. Okeke" (not a
    # catheter's size: "14 Fr. Foley"; not "Chaplain Note").
    _after_title("name.clergy", r"(?<!\d)(?<!\d[ \t])\b(?:(?:Sr|Fr|Br|Msgr|Rev)\.|(?:Rabbi"
                 r"|Imam|Pastor|Reverend|Chaplain|Cantor|Deacon)\b)", 0.85,
                 validate=surname_word, on_view=False),
    # Not the valve after its grade: "mod MR. Digoxin level 0.6", "2+ MR. Lasix".
    RegexRule("name.honorific_mr", PER,
              r"(?i:(?<!mod )(?<!mild )(?<!trace )(?<!severe )(?<!moderate )(?<!trivial )"
              rf"(?<!sev )(?<!\+ ))\bM[Rr]\.?[ \t]+{_TITLED}", 0.9, group=1,
              validate=named_after_mr),
    # A field opens a line or follows a wide gap ("ADMIT DATE: 10/22   ATTENDING: FEIST").
    RegexRule("name.doctor_field", DOC,
              rf"(?im:(?:^[ \t>]*|[ \t]{{3,}}){DOCTOR_FIELDS}{_FIELD_SEP}"
              rf"(?:(?:dr|doctor)\.?[ \t]+)?)"
              rf"{_NAME}", 0.85, group=1, validate=not_a_grade),
    # Lower-case "cc:" is a copy list; upper-case "CC:" is usually the chief complaint (and a
    # line in capitals has no case to tell: "CC: EXERTIONAL HEAT STROKE").
    RegexRule("name.cc", DOC, rf"(?m:^[ \t>]*(?:cc|c\.c\.|Cc)[ \t]*:[ \t]*(?:Dr\.?[ \t]+)?){_NAME}",
              0.85, group=1, on_view=False),
    RegexRule("name.cc_dr", DOC, rf"\b(?:cc|CC|Cc)[ \t]*:[ \t]*(?:Dr\.?|Doctor)[ \t]+{_TITLED}",
              0.9, group=1),
    RegexRule("name.patient_field", PAT,
              rf"(?im:^[ \t>]*(?:{_PATIENT_FIELDS}){_FIELD_SEP})(?!(?i:dr|doctor|bed|rm|room)\b)"
              rf"(?:{_HONORIFIC}\.?[ \t]+)?{_NAME}"
              r"(?![ \t]*(?:\w+[ \t]+)?(?i:is|was|has|had|reports|states|denies)\b)",
              0.85, group=1, validate=not_a_service),  # "PT: HLHS S/P NORWOOD" is no one
    RegexRule("name.surname_first", PAT,
              rf"(?im:^[ \t>]*(?:{_PATIENT_FIELDS}){_FIELD_SEP}(?:{_HONORIFIC}\.?[ \t]+)?)"
              rf"({NAME_TOKEN},[ \t]*{NAME_TOKEN}"
              rf"(?:[ \t]+{INITIAL}(?![\w]))?)", 0.88, group=1),  # not the M of "MRN:"
    RegexRule("name.person_field", PER,
              rf"(?i:\b(?:{_PERSON_FIELDS})){_FIELD_SEP}{_NAME}", 0.8, group=1,
              validate=someone_named),
    RegexRule("name.signature", DOC,
              rf"(?i:\b(?:{_CLOSING}))[ \t]*,?[ \t]*\n(?:[ \t]*\n){{0,4}}[ \t>]*"
              rf"(?:(?i:dr|doctor)\.?[ \t]+)?{_NAME}", 0.8, group=1),
    RegexRule("name.my_name_is", PER,
              rf"(?i:\b(?:my\s+name\s+is|my\s+name's|i\s+am\s+called|this\s+is|i'm|i\s+am|call\s+me|calls\s+me"
              rf"|called|named|(?:maiden|last|first|family|middle|full)\s+name(?:\s+is|\?|:)"
              rf"|name\s+is|goes\s+by))[ \t]+"
              rf"(?!(?i:dr\b|doctor\b|the\b|a\b|not\b|so\b|sorry\b|fine\b|here\b|going\b"
              rf"|mr\b|mrs\b|ms\b|miss\b|mx\b))"  # "called Miss Dot": the title's name
              rf"({NAME_TOKEN}(?:[ \t]+(?:{INITIAL}[ \t]+)?{NAME_TOKEN}){{0,2}})", 0.55, group=1,
              validate=caseless_named, on_view=False),  # "CALLED CT SURG": phoned
    # A nickname in quotes after what says it is one, in any case: 'her mom always went by
    # "Ruthie"', 'CHILDREN REFER TO PT AS "MAMA JO"', 'known as "Hook"', 'when called "deb"'.
    RegexRule("name.quoted_nickname", PAT,
              rf"(?i:\b{NICKNAME_CUES})[ \t:,]*[\"“]"
              r"([^\W\d_][\w'’\-]*(?:[ \t]+[^\W\d_][\w'’\-]*){0,2})[\"”]", 0.7, group=1,
              validate=nickname, on_view=False),
    RegexRule("name.nickname_when_called", PAT,
              rf"(?i:\b{CALLED_WHEN})[ \t:,]*[\"“]([^\W\d_][\w'’\-]*)[\"”]", 0.6, group=1,
              validate=named_when_called, on_view=False),
    # Without quotes, in any case: "PREFERS TO BE CALLED DELPHINE", 'the sister (Ilda)'.
    RegexRule("name.preferred_name", PAT,
              rf"{_CALLED_WORD}(?![\"”\w])", 0.6, group=1, validate=word_or_listed_name,
              on_view=False),
    # An English word too where the sentence ends with it: "PREFERS TO BE CALLED SKIP." (not
    # "asked to be called before any procedures", "wants to be called overnight w/ change").
    RegexRule("name.preferred_word", PAT,
              rf"{_CALLED_WORD}(?=[ \t]*(?:[.,;)]|$))", 0.6, group=1,
              validate=called_word, on_view=False),
    # In quotes an English word too: 'PT ASKS TO BE CALLED "SKIP"'.
    RegexRule("name.preferred_name_quoted", PAT,
              rf"(?i:\b{ASKS_TO_BE_CALLED})[ \t]+[\"“]([^\W\d_][\w'’\-]+)[\"”]", 0.6, group=1,
              validate=quoted_call_me_name, on_view=False),
    # A newborn charted by sex and surname: "bb girl marsh", "BABY BOY OKAFOR", "Baby Girl A
    # Lindqvist" (a twin's letter before the surname).
    RegexRule("name.newborn", PAT,
              r"(?i:\b(?:baby|bb|infant)[ \t]+(?:girl|boy)(?:[ \t]+[AB](?=[ \t]+\w{3}))?)"
              r"[ \t]+([^\W\d_][\w'’\-]{2,})(?![\"”\w])", 0.6, group=1,
              validate=word_or_listed_name, on_view=False),
    # What the family calls the patient: "Parents call her Bea", "FAMILY CALLS HIM TAD",
    # "Family calls pt Nonie" (not "will call her back", "to call him PCP", "call pt Friday":
    # an unlisted or listed non-word only).
    RegexRule("name.called_by", PAT,
              r"(?i:(?<!\bwill[ \t])(?<!\bpls[ \t])\bcalls?[ \t]+(?:her|him|pt|patient))"
              r"[ \t]+([^\W\d_][\w'’\-]+)(?![\"”\w])", 0.6, group=1,
              validate=word_or_listed_name, on_view=False),
    # A clinician's name in brackets after the role: "CT surgery fellow (Frost)", "night
    # resident (okafor)", "- Pharm (sandoval): renal dose adjust".
    RegexRule("name.role_in_brackets", DOC,
              r"(?i:(?<![\-/])\b(?:fellow|resident|attending|intern|intensivist|hospitalist|surgeon"
              r"|perfusionist|pharmacist|pharm|pharmd|dietitian|chaplain|sw|cm|slp"
              r"|np|pa|md|rn|rt"
              # a consulting service's surgeon or fellow: "gen surg (rivers) saw at 1700"
              r"|surg|surgery|ortho|nsgy|nsurg|cards|onc|pulm|nephro|plastics|urology|vascular"
              r"))[ \t]*"
              r"\((?i:dr\.?[ \t]+)?([^\W\d_](?:[^\W\d_]|['’\-])+)\)", 0.6,
              group=1, validate=word_or_listed_name, on_view=False),
    # An unidentified trauma patient's registration alias: "TRAUMA ALIAS ZZTRAUMA, OPAL" (not
    # "Trauma Echo", which is as often the echocardiogram).
    RegexRule("name.trauma_alias", PAT, r"(?i:\b(zz[ \t]?trauma,?[ \t]*[a-z]+)\b)", 0.6, group=1,
              on_view=False),
    # A patient registered under an alias for safety, surname first: "registered under safety
    # alias Doe, Quartz", "remains registered as zebra, unknown per pd".
    RegexRule("name.safety_alias", PAT,
              r"(?i:\b(?:alias(?:[ \t]+name)?|registered[ \t]+(?:as|under)[ \t]+(?:a[ \t]+)?"
              r"(?:(?:safety|trauma|security)(?:[ \t]+alias)?|alias))[ \t:]+)(?!(?i:alias|name)\b)"
              + _SURNAME_COMMA_NAME, 0.6, group=1, validate=alias_name, on_view=False),
    RegexRule("name.registered_as", PAT,
              r"(?i:\bregistered[ \t]+(?:as|under)[ \t]+)" + _SURNAME_COMMA_NAME
              + r"(?=[^\n]*(?i:safety|security|alias|police|\bpd\b|no[ \-]info|confidential))",
              0.6, group=1, validate=alias_name, on_view=False),
    # A nickname without quotes where the chart says it is one: "pt goes by duke", "jojo (what
    # he goes by)", '"TINY" (NICKNAME, PT PREFERS)', "PT (MANNY, PREFERS NICKNAME)".
    RegexRule("name.goes_by", PAT,
              r"(?i:\b(?:(?:goes|went|going)[ \t]+by|known[ \t]+(?:to[ \t]+\w+[ \t]+)?as))[ \t]+"
              rf"(?!{_HONORIFIC}\.?[ \t])([^\W\d_][\w'’\-]+)(?![\"”\w])", 0.6,
              group=1, validate=word_or_listed_name, on_view=False),
    # What a family calls a child, capitalised in a line with case: "Parents call her Peanut".
    RegexRule("name.family_calls", PAT,
              r"(?i:\b(?:parents|family|they|mom|dad)[ \t]+call[ \t]+(?:her|him)[ \t]+)"
              r"([A-Z][a-z][\w'’\-]*)(?![\"”\w])", 0.6, group=1, validate=capitalised_word,
              on_view=False),
    RegexRule("name.nickname_aside", PAT,
              r"[\"“]?([^\W\d_][\w'’\-]+)[\"”]?[ \t]*\((?i:what[ \t]+(?:he|she|they|pt)[ \t]+"
              r"(?:goes[ \t]+by|prefers)|nickname\b"
              r"|goes[ \t]+by[ \t]+(?:a[ \t]+|his[ \t]+|her[ \t]+)?nickname\b)", 0.6, group=1,
              validate=nickname,
              on_view=False),
    # "PT (GOES BY TRIP)": in brackets an English word too.
    RegexRule("name.goes_by_in_brackets", PAT,
              r"\((?i:goes[ \t]+by|prefers|called)[ \t]+([^\W\d_][\w'’\-]+)\)", 0.6, group=1,
              validate=bracketed_nickname, on_view=False),
    # The patient's own words, in quotes: 'says "call me dot, everyone does."'
    RegexRule("name.call_me", PAT,
              r"[\"“](?i:call[ \t]+me)[ \t]+([^\W\d_][\w'’\-]+)(?=[ \t]*[,.!\"”])", 0.6, group=1,
              validate=quoted_call_me_name, on_view=False),
    RegexRule("name.nickname_in_brackets", PAT,
              r"\(([^\W\d_][\w'’\-]+),[ \t]*(?i:prefers[ \t]+(?:nickname|to[ \t]+be[ \t]+called)"
              r"|nickname|goes[ \t]+by)", 0.6, group=1, validate=nickname, on_view=False),
    # What the family calls the patient, in brackets: "Pt (Pip per family)", "pt (nana to the
    # family)".
    RegexRule("name.nickname_per_family", PAT,
              rf"\([\"“]?([^\W\d_][\w'’\-]*)[\"”]?{FAMILY_CALLS}", 0.6, group=1,
              validate=family_nickname, on_view=False),
    RegexRule("name.relation_in_brackets", PER,
              rf"(?i:\b(?:{RELATIONS}))[ \t]*\(([^\W\d_][\w'’\-]+)\)", 0.6, group=1,
              validate=unlisted_word_not_speaking, on_view=False),
    # "PT BAKER HAD A FAIR NIGHT", "Pt Noel remains intubated": a listed surname or first name
    # between "pt" and a verb whose subject it is (resolution/shorthand.after_pt_without_name
    # needs name evidence: this verb is it, and the word is no common or clinical one).
    RegexRule("name.pt_subject", PAT,
              rf"(?i:\bpt\.?[ \t]+)([A-Z][A-Za-z'’\-]{{2,}})(?=[ \t]+(?i:{SUBJECT_VERBS})\b)",
              0.5, group=1,
              validate=listed_uncommon_name),
    # "PT RUTHERFORD, DELPHINE, 63 YO F", "PT MCNAUGHT, 74F", "Pt Ostergaard is 46 yo": a
    # surname (and given name) between "pt" and the patient's age.
    RegexRule("name.pt_aged", PAT,
              rf"(?i:\bpt\.?[ \t]+)({NAME_TOKEN}(?:,[ \t]*{NAME_TOKEN})?)"
              rf"(?=,?[ \t]+(?:(?i:is|was)[ \t]+)?(?:(?i:an?)[ \t]+)?\d{{1,3}}[ \t]*"
              rf"(?:-?[ \t]*(?:{YEARS_OLD}|(?i:years?|yr))\b|[MFmf]\b))", 0.6, group=1,
              validate=named_words),
    # "PT: 46 YO F, LEFITI, HX MORBID OBESITY", "PT IS 62 YO M, HODZIC, S/P FALL": the surname
    # between commas right after the patient's age and sex.
    RegexRule("name.pt_aged_before", PAT,
              rf"(?i:\bpt\b[ \t:]*(?:is[ \t]+)?(?:an?[ \t]+)?\d{{1,3}}[ \t]*{YEARS_OLD}[ \t]*"
              rf"(?:m|f|male|female)[ \t]*,[ \t]*)({NAME_TOKEN})(?=[ \t]*,)", 0.6, group=1,
              validate=aged_surname),
)
