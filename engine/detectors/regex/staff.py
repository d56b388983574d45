"""Staff names in telegraphic notes: no title, often lower case ("per d lang", "md okafor
aware", "HO Brandt notified", "mira holm aware", "B. TOLLER").

Each rule needs a provider phrase or an initial; the words must be names, not English or
clinical words (a listed surname that is also a word, "lang", counts after an initial).
"""

from __future__ import annotations

import re

from engine.core.labels import Label
from engine.detectors.regex.fragments import POST_WORDS
from engine.detectors.regex.rule import RegexRule

DOC = Label.DOCTOR
_ROLE = (r"md|ho|np|pa|rn|resident|intern|fellow|attending|dr|rt|charge\s+rn|sw|rrt|rd|chaplain"
         r"|pharmd")
_NOTIFIED = r"(?:is\s+)?(?:aware|notified|paged|updated|informed|called|made\s+aware|at\s+bedside)"
_WORD = r"[A-Za-z][a-z'’\-]{1,}|[A-Z][A-Z'’\-]{1,}"
# Genus initials and their species, which look like "B. TOLLER" in a culture report.
MICROBES = frozenset({"aureus", "coli", "epidermidis", "pneumoniae", "difficile", "faecalis",
                       "faecium", "aeruginosa", "albicans", "fragilis", "influenzae", "cloacae",
                       "mirabilis", "marcescens", "baumannii", "pyogenes", "agalactiae",
                       "glabrata", "krusei", "parapsilosis", "tropicalis", "maltophilia",
                       "lugdunensis", "lutea", "jeikeium", "pneumophila", "oxytoca", "pylori",
                       "jirovecii", "cepacia", "catarrhalis", "meningitidis", "perfringens",
                       "monocytogenes", "gonorrhoeae", "trachomatis", "acnes",
                       # as charted short: "C. DIFF", "K. PNEUMO", "H. FLU"
                       "diff", "dif", "pneumo", "flu", "influenza",
                       # travellers' infections: "P. FALCIPARUM 18%", "S. TYPHI IN BCX"
                       "falciparum", "vivax", "ovale", "malariae", "knowlesi", "typhi",
                       "paratyphi", "stercoralis", "pseudomallei", "cenocepacia",
                       # the anginosus group: "strep intermedius (milleri group)"
                       "intermedius", "anginosus", "constellatus", "milleri",
                       # border and zoonotic infections: "T. cruzi IgG", "Rickettsia
                       # rickettsii PCR", "V. vulnificus", "cocci immitis"
                       "cruzi", "rickettsii", "vulnificus", "hydrophila", "immitis",
                       "posadasii", "capsulatum", "dermatitidis", "gondii", "neoformans",
                       "gattii", "burgdorferi", "melitensis", "abortus",
                       # a resistant yeast reported to public health: "SWAB POSITIVE FOR C. AURIS"
                       "auris"})


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*", text) if len(w) > 1]


def _is_name(word: str, *, listed_word_ok: bool) -> bool:
    from engine.detectors.dictionary.context import clinical_words, is_english
    from engine.detectors.dictionary.names import all_name_lists
    from engine.resolution.shorthand import is_prefixed_word, is_shorthand

    key = word.casefold()
    if key in clinical_words() or key in MICROBES or len(key) < 3:
        return False
    first, last = all_name_lists()
    listed = key in first or key in last
    if (is_shorthand(key) or is_prefixed_word(key)) and not listed:
        return False  # "w/ R MAINSTEM blocker", "attending re-examine at bedside"
    return not is_english(key) or (listed_word_ok and listed)


def staff_name(text: str) -> bool:
    """Every word a name; a listed name that is also a word only beside an initial."""
    words = _words(text)
    initial = bool(re.match(r"[A-Za-z]\.?[ \t]", text))
    return bool(words) and all(_is_name(w, listed_word_ok=initial or len(words) > 1)
                               for w in words)


# Words a sentence goes on with after an initial's period ("strict I/O. Per RN, resistance").
_NOT_A_SURNAME = frozenset({"per", "for", "and", "the", "via", "with", "from", "to", "at", "by",
                            "see", "pt", "pts", "if", "on", "in", "no", "not"})


def initial_surname(text: str) -> bool:
    """"e. brandvold", "M. Abalos": an initial and a name, no microbe ("rt e. coli") and no
    function word after a sentence's end."""
    surname = text.split(".", 1)[-1].strip().casefold()
    return staff_name(text) and surname not in MICROBES and surname not in _NOT_A_SURNAME


# Whom report goes to by role ("handoff to nocturnist", "report to oncoming").
_ROLES = frozenset({"nocturnist", "nocturnists", "hospitalist", "hospitalists", "intensivist",
                    "moonlighter", "oncoming", "receiving", "nights", "days", "charge", "floor",
                    "stepdown", "pacu", "or", "ed", "er", "icu"})


def reported_to(text: str) -> bool:
    """"Report given to Jae-won": a name, not a role ("handoff to nocturnist")."""
    return staff_name(text) and text.split()[0].casefold() not in _ROLES


def caps_surname(text: str) -> bool:
    """"B. TOLLER": an initial and a capitalised surname that is no common or clinical word
    (a rarer English word, "toller", is more likely a surname in this shape)."""
    from engine.cire.lexicon import default_lexicon
    from engine.detectors.dictionary.context import clinical_words, is_english
    from engine.detectors.dictionary.names import is_listed_name
    from engine.detectors.dictionary.stopwords import common_words
    from engine.resolution.shorthand import is_prefixed_word, is_shorthand

    words = _words(text)
    if len(words) != 1:
        return False
    key = words[0].casefold()
    if text[0] in "RL" and (is_english(key) or is_prefixed_word(key)) \
            and not is_listed_name(key):
        return False  # "WITHDRAWS R. PUPILS R 4MM", "ON L. PREOXYGENATED": a side, no initial
    return key not in clinical_words() and key not in MICROBES and key not in common_words() \
        and not is_shorthand(key) and default_lexicon().whole(key) is None  # "R. LUNG"


# The credentials or role that close a line signing a note: "FEIST ATTENDING", "R. SPANG RRT",
# "M. daSilva RN CM".
_SIGNED_AS = r"(?i:rn|rrt|rt|md|np|pa-c|attending|fellow|resident|msw|lcsw|licsw)"
# What a post is, not who holds it ("MICU ATTENDING", "RAPID RESPONSE RN", "ECMO SPEC RRT").
_POSTS = POST_WORDS | frozenset("shift spec specialist response care burn trauma neuro cards admit"
                                " admitting note overnight senior junior student new resource"
                                .split())


_SIGNATURE = (r"(?im:^[ \t]*(?:(?:pgy-?\d|r\d)[ \t]*/[ \t]*)?)"
              r"((?:[A-Za-z]\.[ \t]?|[A-Za-z][a-z'’\-]+[ \t]+|[A-Z][A-Z'’\-]+[ \t]+)?"
              r"[A-Za-z][A-Za-z'’\-]{2,})"
              rf"(?=[ \t]*,?[ \t]+{_SIGNED_AS}(?:[ \t]*[,/]?[ \t]*(?i:cm|ccrn|bsn|msn))?"
              r"\.?[ \t]*(?:\n|\Z))")
_SIGNATURE_LINE = re.compile(_SIGNATURE)


def signs_the_note(text: str, start: int, end: int) -> bool:
    """Is text[start:end] the name, or in the name, of a line that signs the note?"""
    line_start = text.rfind("\n", 0, start) + 1
    found = _SIGNATURE_LINE.match(text, line_start)
    return found is not None and found.start(1) <= start and end <= found.end(1) \
        and signature_name(found.group(1))


def signature_name(text: str) -> bool:
    """"FEIST", "R. SPANG", "lonnie bends": a surname that no common, clinical or shorthand word
    is, after an optional initial or listed first name; a line that signs a note needs no more
    (a rarer English word, "feist", is a surname there), and a post is no surname."""
    from engine.detectors.dictionary.context import clinical_words
    from engine.detectors.dictionary.names import all_name_lists
    from engine.detectors.dictionary.stopwords import common_words
    from engine.resolution.shorthand import icu_words, is_shorthand, service_word

    words = _words(text)
    given = words[0].casefold() if len(words) == 2 and not re.match(r"[A-Za-z]\.", text) else None
    if given is not None and (given not in all_name_lists()[0] or given in common_words()
                              or given in clinical_words() or is_shorthand(given)):
        return False
    key = words[-1].casefold()
    return key not in _POSTS and key not in common_words() and key not in clinical_words() \
        and key not in icu_words() and key not in MICROBES and not is_shorthand(key) \
        and not service_word(key)


def speaks_for_a_service(text: str) -> bool:
    """"per patel on renal": a listed name, or no English word, that no ICU or clinical list
    holds ("per protocol on nights", "per report from cards")."""
    from engine.detectors.dictionary.context import clinical_words, is_english
    from engine.detectors.dictionary.names import is_listed_name
    from engine.resolution.shorthand import icu_words

    key = text.casefold()
    return key not in clinical_words() and key not in icu_words() \
        and (is_listed_name(key) or not is_english(key))


def interpreter_name(text: str) -> bool:
    """"Cantonese interpreter Fung", "somali interp abdikarim": a name, or a word no list holds,
    and no word ("interpreter present", "teach-back"). A language ("interpreter Mandarin") is
    the allowlist's (faiths_and_languages.txt)."""
    from engine.detectors.dictionary.context import is_english_compound

    return _is_name(text, listed_word_ok=False) and text.casefold() not in _INTERPRETING_MEANS \
        and not ("-" in text and is_english_compound(text))  # "via interpreter teach-back"


# How an interpreter joins, where no word list holds it: "INTERPRETER IPAD USED", "interp vri".
_INTERPRETING_MEANS = frozenset({"ipad", "ipads", "vri", "opi", "app", "svc", "svcs", "cyracom",
                                 "stratus", "martti", "languageline"})


def first_and_last(text: str) -> bool:
    """"mira holm": a listed first name that is no word, then a surname."""
    from engine.detectors.dictionary.context import is_english
    from engine.detectors.dictionary.names import all_name_lists

    words = _words(text)
    if len(words) != 2:
        return False
    first, last = all_name_lists()
    given, family = (w.casefold() for w in words)
    return given in first and not is_english(given) \
        and _is_name(family, listed_word_ok=family in last)


STAFF_RULES: tuple[RegexRule, ...] = (
    # "md okafor aware", "HO Brandt notified", "resident j kim paged"
    RegexRule("staff.role_notified", DOC,
              rf"(?i:\b(?:{_ROLE})\.?[ \t]+)((?:[a-z]\.?[ \t]+)?(?:{_WORD})(?:[ \t]+(?:{_WORD}))?)"
              rf"(?=[ \t]+(?i:{_NOTIFIED})\b)", 0.7, group=1, validate=staff_name),
    # "per d lang", "d/w j smith": an initial and a surname after a provider phrase; not an
    # article ("TRAMPLED BY A BULL").
    RegexRule("staff.initial_surname", DOC,
              r"(?i:\b(?:per|d/w|w/|by|spoke\s+(?:with|to)|discussed\s+with)[ \t]+)"
              r"((?![aAiI][ .])[A-Za-z]\.?[ \t]+[A-Za-z][a-z'’\-]{2,}"
              r"|(?![AI][ \t])[A-Z]\.?[ \t]+[A-Z]{3,})\b",
              0.65, group=1, validate=staff_name),
    # "B. TOLLER", "K. MORROW RN"; not a T wave ("PEAKED T. GIVEN CA"), nor the end of "D+I.",
    # "F/C.", "CX'D.", "D&I." ("D+I. WAVEFORM"), nor a unit after its number ("KEPPRA 1 G.
    # PUPILS", "CORE TEMP 32.4 C. ACTIVE")
    RegexRule("staff.initial_caps", DOC,
              r"(?<![\w.>+/'’&])(?<!\d[ \t])(?<!PEAKED[ \t])(?<!INVERTED[ \t])(?<!FLAT[ \t])"
              r"(?<!YO[ \t])(?<!Y/O[ \t])"  # "58 YO M. HOMELESS": the sex
              r"(?<!HYPERACUTE[ \t])(?<!PHASE[ \t])(?<!STAGE[ \t])(?<!CLASS[ \t])(?<!TYPE[ \t])"
              # "REHAB PHASE I. ANTICIPATE"; "LOW K. CODE: FULL" is a field's label
              r"([A-Z]\.[ \t]?[A-Z]{3,}(?:-[A-Z]{2,})?)\b(?![ \t]*:)",
              0.6, group=1, validate=caps_surname),
    # "per patel on renal", "per okafor from cards", "per ilunga (renal)": a surname and the
    # service it speaks for.
    RegexRule("staff.per_service", DOC,
              r"(?i:\bper[ \t]+)([a-z][a-z'’\-]{2,})"
              r"(?=[ \t]+(?:(?:on|from)[ \t]+|\()(?i:renal|nephro|cards|cardiology|gi|id|pulm"
              r"|neuro|nsgy|neurosurg|surgery|surg|ortho|trauma|onc"
              r"|heme|psych|palliative|pall|uro|urology|vasc|ent|ir|anesthesia|icu|micu|sicu"
              r"|nights?|days)\b)", 0.6, group=1, validate=speaks_for_a_service),
    # An interpreter by name: "Cantonese interpreter Fung", "somali interp abdikarim".
    RegexRule("staff.interpreter", DOC,
              # not across a sentence's end: "w/ interpreter. Family's priest expected"
              r"(?i:\b(?:interpreter|interp\.?)[ \t]+)([A-Za-z][a-z'’\-]{2,}|[A-Z][A-Z'’\-]{2,})\b",
              0.6, group=1, validate=interpreter_name),
    # An initial and a surname after a role or before a credential, in any case: "sw e.
    # brandvold doing psychosocial eval", "rt m. abalos", "t. mensah rn gave report", "p.
    # ahearn, id fellow" (dev 1-56: 152 such spans, 1 no name).
    RegexRule("staff.role_initial", DOC,
              r"(?i:(?<![\w./])(?:sw|rt|rrt|rn|np|pa|md|cm|nsgy|fellow|resident|attending|intern"
              r"|chaplain|rd|pharmd|pharm|slp|ot|admitting:?|nurse|tech|case[ \t]+manager"
              r"|social[ \t]+worker|dietitian|pharmacist|interpreter|interp)[ \t]+)"
              r"([A-Za-z]\.[ \t]?[A-Za-z][a-z'’\-]{2,})\b", 0.65, group=1,
              validate=initial_surname),
    RegexRule("staff.initial_credential", DOC,
              r"(?<![\w.])([A-Za-z]\.[ \t]?[A-Za-z][a-z'’\-]{2,})"
              r"(?=,?[ \t]+(?i:rn|md|np|pa|pa-c|rt|rrt|sw|lcsw|msw|rd|pharmd|pgy-?\d)\b)", 0.65,
              group=1, validate=initial_surname),
    # Whom a nurse gave report to: "Report given to Jae-won on step-down", "report called to
    # RN Okafor", "handoff to ravi" (dev 1-56: 18 names, 1 a nation's ambulance crew).
    RegexRule("staff.report_to", DOC,
              r"(?i:\b(?:report|handoff|hand-off|sbar)(?:[ \t]+(?:given|called|phoned|gave))?"
              r"[ \t]+to[ \t]+(?:(?:the[ \t]+)?(?:rn|charge[ \t]+rn|nurse|dr\.?|np)[ \t]+)?)"
              r"([A-Za-z][a-z'’\-]+(?:[ \t]+[A-Z][a-z'’\-]+)?)", 0.6, group=1,
              validate=reported_to),
    # A line that signs the note: "FEIST ATTENDING", "PGY-3 / HAIDER ATTENDING", "R. SPANG RRT",
    # "lonnie bends rrt" (dev 1-101: 621 such lines name the signer, 58 hold a post's words).
    RegexRule("staff.signature", DOC, _SIGNATURE, 0.6, group=1, validate=signature_name),
    # "mira holm aware"
    RegexRule("staff.name_notified", DOC,
              rf"(?<![\w.])([a-z]{{2,}}[ \t]+[a-z]{{2,}})(?=[ \t]+{_NOTIFIED}\b)", 0.6, group=1,
              validate=first_and_last),
)
