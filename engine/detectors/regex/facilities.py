"""Organisations and facilities named with a telling head word ("Lakeside Clinic", "Acme Inc.")."""

from __future__ import annotations

import re
from functools import lru_cache

from engine.core.labels import Label
from engine.core.regions import STATE_ABBREVIATIONS
from engine.detectors.regex.fragments import ICU_UNIT, LETTER, STAFF_AFTER, UP
from engine.detectors.regex.rule import RegexRule

H = Label.HOSPITAL
_TOKEN = rf"(?:{UP}{LETTER}*(?:['’]s)?|St\.|&|and|of|de|du|la|for)"
# ("HOSPITAL BED AT HOME" is equipment)
_HEAD = (r"(?:Hospital(?![ \t]+(?i:beds?)\b)|Hosp\b\.?|Rehab|Clinic|Medical\s+Cent(?:er|re)"
         r"|Health\s+Cent(?:er|re)|Health\s+Sciences?"
         r"|Infirmary|Sanatorium|Hospice|Domiciliary|Manor|Pharmacy|Drug\s+Mart|Laboratories"
         r"|Labs?|Imaging"
         # an organ procurement organisation: "referral made to Tri-County Donor Alliance"
         r"|Donor\s+(?:Alliance|Network|Services)"
         # "Kindred LTAC"; in an ALL CAPS line only through the cased view ("Kindred Ltac")
         r"|Ltach?|Snf|(?<=[a-z][ \t])(?:LTACH?|SNF)"
         r"|Radiology|Rehabilitation\s+Cent(?:er|re)|Nursing\s+Home|Care\s+Cent(?:er|re)"
         # a skilled nursing home by what it gives: "transferring to Sunhaven Post-Acute"
         r"|Post[\-\s]Acute"
         # where a patient dialyses or delivers: "Wexcombe Renal Unit", "Linfield Birth Center"
         r"|(?:Dialysis|Renal|Kidney)\s+(?:Cent(?:er|re)|Unit)|Birth(?:ing)?\s+Cent(?:er|re)"
         # a specialty's centre or programme by its name: "Kessering Bariatric Center",
         # "Brackenford Hemophilia Center", "Lannigan Bariatric Program"
         r"|(?:Bariatric|Hemophilia|Cancer|Heart|Transplant|Wound|Sleep|Surgery|Surgical|Stroke"
         r"|Burn|Trauma|Spine|Vein|Vascular|Fertility|Diabetes|Memory|Treatment|Infusion"
         r"|Recovery|Detox)\s+(?:Cent(?:er|re)|Program|Institute)"
         # an agency that houses, feeds or represents a family: "Crescent Family Services",
         # "Obreros Unidos Legal Project", "Himalaya Home Care Services"
         r"|(?:Family|Community|Newcomer|Refugee|Immigrant|Legal)\s+(?:Services|Project)"
         r"|Home\s+Care\s+Services|Ventilator\s+Care|Skilled\s+Nursing"
         # a home ventilator's or oxygen's supplier: "via Ocean State Respiratory Services"
         r"|(?:Respiratory|Oxygen|Home\s+Medical)\s+(?:Services|Supply|Equipment)"
         # a legal aid society, a funeral home, a veterans' home, a clinic by the health it
         # gives: "Proyecto Juntos Legal Aid", "Hightower & Sons Funeral Home", "Nineveh Family
         # Health"
         r"|Legal\s+Aid|Funeral\s+Home|Veterans\s+Home|Medical\s+Respite"
         # a long-term acute care hospital by its kind, a relief fund ("RIVERGATE LONG TERM
         # ACUTE CARE", "Music Row Musicians Relief Fund")
         r"|Long[\s\-]Term\s+(?:Acute\s+)?Care|(?:Relief|Assistance|Emergency)\s+Fund"
         r"|Family\s+Health"
         r"|(?:Adolescent|Psychiatric|Behavioral|Eating\s+Disorders?|Burn)\s+(?:Unit|Program)"
         r"|Institute|University|College|Foundation|Group|Associates|Partners|Holdings"
         r"|Technologies|Consulting|Software|Systems|Solutions|Corporation|Company|Bank"
         r"|Capital|Insurance|Industries|Enterprises|Ventures"
         # an employer by its trade: "Corran Valley Electric", "Pruett's Auto Body"
         r"|Electric|Construction|Roofing|Plumbing|Trucking|Auto\s+Body|Landscaping|Motors)")
_SUFFIX = r"(?:Inc|LLC|L\.L\.C|Ltd|Limited|Corp|Co|PLC|GmbH|AG|S\.A|SA|LLP|LP|PC|PLLC|Pty)"
# "Limited" before what an exam measures is the adjective ("Slight Limited ROM on extension",
# "Severely Limited range of motion"), not a company.
_NOT_LIMITED = (r"(?!(?<=Limited)[ \t]+(?i:rom|arom|prom|range|motion|movement|mobility|active"
                r"|passive|flexion|extension|abduction|adduction|rotation|weight|excursion"
                r"|ambulation|activity|exam|view|study|due|secondary|english|spanish|language"
                r"|resources|means|options|support|insight|understanding|literacy)\b)"
                r"(?!(?<=AG)[ \t]*(?:\d|[<>=]|(?i:closed|open|gap|normal|wnl)\b))")  # anion gap

# Where a patient goes or comes from: "transfer to CMC", "seen at OHSU", "back to Ward 4".
MOVE_TO_PLACE = (r"(?i:\b(?:at|to|from|transfer(?:red)?\s+to|transferred\s+from|admitted\s+to"
                 r"|arrived|sent\s+to|back\s+to|returned?\s+to|d/c\s+to|discharged?\s+to|floor:)"
                 r"[ \t]+(?:the[ \t]+)?)")  # "To floor: Whitcomb 4 trauma"

_TRANSFER = (r"(?i:\b(?:transfer(?:red)?\s+(?:to|from)|admitted\s+to|sent\s+to|back\s+to"
             r"|(?:records|requested)\s+(?:to|from)|presented\s+to"  # "records from PMH"
             r"|returned?\s+to|d/c\s+to|discharged?\s+to)[ \t]+(?:the[ \t]+)?)")

# A service's room, diet or list after an acronym: "BACK AT OUTPT UNIT", "D/C'D FROM MED
# LIST", "from ENT floor".
_NOT_A_ROOM = (r"(?![ \t]+(?i:diet|lab|suite|room|protocol|unit|list|floor|step-?down|team"
               r"|service)\b)")

# Short words after "to"/"at" that are no institution: titles ("TO DR. CETTINA" in a
# shouted line), a cash machine.
# Titles, and agencies that name no patient's place ("ARTESUNATE ARRIVED FROM CDC").
_NOT_INSTITUTIONS = frozenset({"dr", "mr", "mrs", "ms", "mx", "prof", "sr", "jr", "atm", "cdc",
                               "fda", "who", "nih", "doh",  # "referred to DOH"
                               # a clinician, not a place ("records from PCP")
                               "pcp", "gp", "md", "np", "pa", "rn",
                               # the diabetic diet ("Diet advanced to ADA.")
                               "ada"})


# What is said of a stay or a plan, never part of an institution's name: "Brief Hospital
# Course", "Needs LTAC level of care", "ASKED TO GO TO A BIGGER HOSPITAL".
PLAN_WORDS = frozenset({"brief", "previous", "prior", "prolonged", "need", "needs", "requires",
                        "possible", "eventual", "future", "bigger", "larger", "smaller",
                        "declined", "freestanding", "between", "place",
                        # a choice or a hedge: "pt declines snf", "Likely LTACH", "POSSIBLY
                        # SNF", "CONT LTACH PLANNING", "elderly snf pt", "INOTROPE-CAPABLE HOSPICE"
                        "declines", "refuses", "refused", "prefers", "wants", "cont", "elderly",
                        "capable", "appropriate", "suitable", "eligible",
                        # an insurer's approval for one ("Auth for LTACH will need")
                        "auth", "authorization", "precert",
                        # how near a patient is to needing one ("medically approaching ltach
                        # readiness")
                        "medically", "approaching", "nearing", "explore", "exploring"})
# Words that say which kind or whose a service is, or what someone did, not which one it is:
# "Clinical Pharmacy Note", "EXPLAINED HOSPITAL POLICY", "outpatient pharmacy".
_GENERIC_BEFORE_HEAD = frozenset({
    # whose or which in a list ("PENDING FROM STATE LAB", "BACKUP SNF REFERRALS PENDING")
    "state", "public", "reference", "backup", "back-up",
    "clinical", "outpatient", "inpatient", "outpt", "inpt", "local", "outside", "initial",
    "retail", "mail", "specialty", "compounding", "hospital", "clinic", "explained", "called",
    "contacted",
    "notified", "faxed", "informed", "discussed", "reviewed", "updated", "per", "her", "his",
    "their", "your", "our", "this", "that", "consider", "icu", "micu", "sicu", "ccu", "unit",
    # what a service treats: "Cardiac Rehab Phase I Note", "pulmonary rehab", "Lipid Clinic"
    "cardiac", "pulmonary", "cardiopulmonary", "physical", "occupational", "speech", "acute",
    "hcm", "hf", "chf", "copd", "ild", "ibd", "hiv",  # "referral to hcm clinic"
    "subacute", "geriatric", "psych", "psychiatric", "detox", "dialysis", "wound", "pain",
    "vascular", "anticoagulation", "coumadin", "stroke", "lipid", "transplant", "infusion",
    # what is said of a head: "Recs for LTAC", "referral to rehab", "accepted at snf"
    "recs", "recommendations", "referral", "referred", "accepted", "pending", "for", "to",
    "at", "and", "interventional", "diagnostic", "cath", "ep",  # "Cath Lab Handoff to CICU"
    # which one of a kind: "3. Second LTAC 1.5 hr away", "hospital-based primary care clinic"
    "first", "second", "third", "another", "other", "nearest", "closest", "same", "based",
    "primary", "care", "urgent", "community", "yr", "year",
    # what one does with one, a kind of one: "pt/ot recommending snf", "uses mail order
    # pharmacy", "WEARING HOSPITAL GOWN", "nutrition support clinic", "DEVICE CLINIC F/U"
    "recommending", "recommends", "uses", "using", "wearing", "order", "nutrition", "support",
    "device", "dental", "joint", "multidisciplinary",
    # in capitals: "OTHERWISE SNF", "CHARGE RN AND PHARMACY", "SNF PHARMACY", "PT USES LOCAL
    # PHARMACY", "HOME INFUSION PHARMACY", "THROUGH MANY HOSPITAL STAYS"
    "otherwise", "snf", "home", "rn", "charge", "pt", "many", "see", "tell", "not", "did",
    # an order or a plan in capitals ("CONSULTED HOSPITAL LEGAL", "Anticipate SNF for rehab",
    # "gave her hospital letter template", "CONTINUE INOTROPE UNDER HOSPICE BENEFIT")
    "consulted", "anticipate", "anticipated", "gave", "give", "continue", "continues",
    # whose ("since her psychiatrist's clinic closed")
    "psychiatrist's", "doctor's", "pcp's", "dentist's", "therapist's", "counselor's",
    "provider's", "surgeon's", "cardiologist's", "oncologist's",
    # a veterans' programme by what it treats ("REFERRAL TO VA TOBACCO CESSATION CLINIC"), the
    # Indian Health Service's ("through the ihs pharmacy")
    "va", "tobacco", "cessation", "smoking", "ihs",
    # where a generic one stands ("ARRIVED VIA BUSH PLANE FROM VILLAGE CLINIC", "tribal clinic")
    "village", "tribal", "rural", "satellite", "mobile", "free", "outreach",
    # the patient's own ("PHARMACY TO CALL PT'S PHARMACY IN AM"), the family's ("called from
    # work at the family's pharmacy"), a trade one works in ("pt works construction")
    "pt's", "pts", "patient's", "family's", "wife's", "husband's", "son's", "daughter's",
    "brother's", "sister's", "father's", "mother's", "parents'", "uncle's", "cousin's",
    "friend's", "the", "from", "work", "works", "worked", "working", "does", "job",
    # who supplied one ("rt ordered hospital cpap for tonight")
    "rt", "ordered", "provided", "supplied", "loaned", "issued",
    # whom or how one serves ("charity ltach bed unlikely", "adult endo clinic f/u")
    "charity", "adult", "adults", "adolescent", "pediatric", "peds", "endo",
    # a unit's own clinic ("SEEN AT TROOP MEDICAL CLINIC 2 DAYS AGO")
    "troop", "battalion", "brigade", "unit's",
    # who pays for a stay, and the notice that says so ("INFO ON MEDICARE SNF BENEFIT", "IMM
    # AND SNF NOTICES": an Important Message from Medicare)
    "medicare", "medicaid", "imm",
    # where the sick are sent in a region ("BEING SEEN AT HUB HOSPITAL")
    "hub"})\
    | PLAN_WORDS
# Words that end a clause before a head: "strips through hospital pharmacy" names no pharmacy.
_THROUGH = frozenset({"through", "thru", "via", "with", "w/", "into", "by", "near", "under",
                      "since",
                      # "1 YR AFTER LOSING CLINIC ACCESS", "remove prior to transfer unless ltach"
                      "after", "before", "unless", "until", "without", "losing", "lost",
                      # "meanwhile team using hospital policy", "worried pt is not eating
                      # hospital food"
                      "using", "eating", "meanwhile", "while",
                      # Spanish "to the": 'NO QUERIA IR AL HOSPITAL' (not "Al Noor Hospital")
                      "al"})


_HEAD_AT_END = re.compile(rf"[ \t]+{_HEAD}$")


# What the writer wants or did before a head word, capitalised at a sentence's start.
_WANTS_BEFORE = frozenset("will would may might should can could must need needs needed require"
                          " requires required want wants prefer prefers recommend recommends"
                          " recommended consider call called consult consulted refer referred"
                          " start started see seen get await awaiting revisit pending option"
                          " options rec recs discuss".split())


def _named_head(text: str) -> bool:
    """A head word with a name before it, not only generic words ("Outpatient Renal Center":
    the head is two words)."""
    from engine.resolution.shorthand import service_word

    words = _HEAD_AT_END.sub("", text).casefold().split()
    while words and (words[0] in _WANTS_BEFORE or _doing(words[0])):
        words.pop(0)  # "Will Need Legal Aid", "Needs Skilled Nursing": a need, no name
        if not words:
            return False
    through = [i for i, w in enumerate(words) if w in _THROUGH]
    if through:
        words = words[through[-1] + 1:]
        if not words:
            return False  # "HOTEL NEAR HOSPITAL": no name before the head
    return not words or not all(w.strip(".") in _GENERIC_BEFORE_HEAD or service_word(w)
                                or _hedge(w) for w in words)  # "to see travel clinic"


def _doing(word: str) -> bool:
    """What someone is doing: "refusing hospital tray", "waiting ltach"; not a place or a
    surname ("Flushing Hospital", "Ewing Clinic")."""
    from engine.detectors.dictionary.context import is_english
    from engine.detectors.dictionary.locations import one_word_places
    from engine.detectors.dictionary.names import is_listed_name

    key = word.casefold()
    return key.endswith("ing") and is_english(key) and not is_listed_name(key) \
        and key not in one_word_places()


_CAPABLE = re.compile(r"[a-z\-]+-(?:capable|appropriate|eligible|level)")


def _hedge(word: str) -> bool:
    """An adverb, or what a head is capable of: "Likely LTACH", "probably snf", "inotrope-
    capable hospice"; not a name ("Beverly Hospital", "Holly Clinic")."""
    from engine.detectors.dictionary.context import is_english
    from engine.detectors.dictionary.names import is_listed_name

    return bool(_CAPABLE.fullmatch(word)) or word.endswith("ly") and is_english(word) \
        and not is_listed_name(word)


def _named_company(text: str) -> bool:
    """A company's name before its suffix, not a vent mode ("SIMV PC", "AC PC 28/PEEP") or
    clinical shorthand joined by "and" ("ARF and AG acidosis")."""
    from engine.detectors.regex.validators import measured_term
    from engine.resolution.shorthand import clinical_or_english, is_shorthand
    from engine.resolution.terms import drug_words

    words = [w for w in text.replace(",", " ").split()[:-1] if w.casefold() not in ("and", "&")]
    if text.rstrip(".").endswith(("LP", "PC")):  # "3. Avoid LP", "FLUCYTOSINE, LP TODAY"
        return any(not clinical_or_english(w.strip(".")) and w.casefold() not in drug_words()
                   for w in words)
    if text.rstrip(".").endswith("AG"):  # an antigen or silver: "URINARY AG", "AQUACEL AG"
        return not words or not all(clinical_or_english(w.strip(".")) or measured_term(w)
                                    for w in words)
    return not words or not all(is_shorthand(w.strip(".")) for w in words)


_VENDOR_HEAD = (r"(?i:home[ \t]+(?:infusion|oxygen|medical|health[ \t]+care|care)"
                r"|infusion[ \t]+services|oxygen|ambulance|specialty[ \t]+(?:rx|pharmacy)"
                r"|medical[ \t]+supply|pavilion|behavioral(?:[ \t]+health)?|drugs?"
                r"|respiratory[ \t]+(?:care|services)|[a-z]{2,4}[ \t]+cent(?:er|re)"  # PH Center
                r"|crisis[ \t]+(?:stabilization[ \t]+)?(?:unit|cent(?:er|re))"
                r"|(?:dialysis|renal|kidney)[ \t]+(?:unit|cent(?:er|re)))")  # "wexcombe renal unit"
_VENDOR_WORDS = re.compile(rf"[ \t]+{_VENDOR_HEAD}$")
# "Brugada drug list reviewed", "drug screen", "drug levels": what is said of a drug.
_NOT_A_LIST = r"(?![ \t]+(?i:list|screens?|levels?|interactions?|rash|allerg))"


def _named_vendor(text: str) -> bool:
    """A name before a vendor's or a unit's kind: some word of it no English, shorthand or
    drug ("Thymoglobulin infusion" is a drip, and no vendor's kind is "infusion" alone)."""
    from engine.detectors.dictionary.context import is_english
    from engine.detectors.regex.validators import measured_term
    from engine.resolution.shorthand import is_shorthand
    from engine.resolution.terms import drug_words

    name = _VENDOR_WORDS.sub("", text)
    return any(not is_english(w) and not is_shorthand(w) and w.casefold() not in drug_words()
               and not measured_term(w) for w in name.split())


def _named_head_word(text: str) -> bool:
    """A name, not a kind or a shift ("Volunteer Fire Dept", "Local Police")."""
    from engine.detectors.dictionary.context import is_english

    return not all(is_english(w) for w in text.split())


def _institution_acronym(text: str) -> bool:
    """Not a clinical unit, test, title, state or English word ("to ICU", "to CT", "TO BED",
    "from WV")."""
    from engine.detectors.dictionary.context import is_english
    from engine.resolution.shorthand import is_prefixed_word

    key = text.casefold()
    return key not in _NOT_INSTITUTIONS and not is_english(key) and not is_prefixed_word(key) \
        and key not in STATE_ABBREVIATIONS and not _ICU_UNIT.fullmatch(key)  # "TO NTICU"


_ICU_UNIT = re.compile(ICU_UNIT)


# Kinds of institution alone, whose name comes after them ("from CHSLD", "per CHSLD staff",
# "at the IHS clinic"; "CHSLD Champlain" is facility.quebec's).
_KINDS = frozenset({"chsld", "clsc", "ihs", "chu"})


def _moved_to_acronym(text: str) -> bool:
    """"transfer to CMC"; not two letters of clinical shorthand ("clot anterior to RV"), nor
    a unit, device or drug of the ICU list ("transfer to NSICU", "transition to LMWH")."""
    from engine.resolution.shorthand import icu_words, is_shorthand
    from engine.resolution.terms import drug_words

    key = text.casefold()
    return _institution_acronym(text) and key not in icu_words() and key not in _KINDS \
        and key not in drug_words() and not (len(text) == 2 and is_shorthand(text))


def _acronym_at(text: str) -> bool:
    """After a bare "at", "to" or "from" an acronym is an institution only when it is no
    shorthand of any length: "consented to HCV NAT+ donors", "pain at CVC site", "TO ANGIO
    1245" (in dev 1-28 such shorthand was a place 2 times in 24)."""
    from engine.resolution.shorthand import is_shorthand

    return _moved_to_acronym(text) and not is_shorthand(text)


def _quebec_name(text: str) -> bool:
    """"CHSLD Champlain", "CLSC des Îles-du-Chenal": a name after the kind, not an English word
    ("CLSC nurse", "the CHSLD will call")."""
    from engine.detectors.dictionary.context import is_english
    from engine.resolution.shorthand import is_shorthand

    last = text.split()[-1]
    return "-" in last or len(last) >= 3 and not is_english(last) and not is_shorthand(last)


def _staff_acronym(text: str) -> bool:
    """"per QVL RT", "HFCH nursing supervisor": three letters or more, no unit, test,
    shorthand, drug or English word ("ABG RT", "ICU RN")."""
    from engine.resolution.shorthand import is_shorthand
    from engine.resolution.terms import drug_words

    return len(text) >= 3 and _institution_acronym(text) and not is_shorthand(text) \
        and text.casefold() not in drug_words() and text.casefold() not in _KINDS


@lru_cache(maxsize=1)
def _states() -> frozenset[str]:
    """One-word state names of the shipped location gazetteer."""
    from engine.detectors.dictionary.locations import LOCATIONS_FILE, read_locations
    from engine.paths import resource

    table = read_locations(resource(*LOCATIONS_FILE).read_text(encoding="utf-8"))
    return frozenset(p[0] for p, subtype in table.items() if subtype == "STATE" and len(p) == 1)


def _state_university(text: str) -> bool:
    """"U Vermont", "U of Michigan": U and a state name."""
    return text.split()[-1].casefold() in _states()


# The surgical services and the kinds of practice, which "<word> Surgery" or "<word> Practice"
# names far more often than a practice's own name ("General Surgery", "Family Practice").
_SURGICAL = (r"(?i:general|cardiac|cardiothoracic|thoracic|vascular|plastic|orthopa?edic|colorectal"
             r"|day|bariatric|hand|breast|neuro|pa?ediatric|oral|maxillofacial|emergency|trauma"
             r"|transplant|hepatobiliary|endocrine|minor|upper|family|private|group)\b")


FACILITY_RULES: tuple[RegexRule, ...] = (
    RegexRule("facility.state_university", H, r"\b(U\.?[ \t]+(?:of[ \t]+)?[A-Z][a-z]{3,})\b", 0.6,
              group=1, validate=_state_university),
    # Quebec's institutions by their kind, in any case: "CHSLD Les Trois-Battures", "chsld
    # saint-joachim-du-cap", "CH de la Baie-Brûlée", "CLSC des Îles-du-Chenal", "Hôpital
    # Sainte-Croix", "Centre hospitalier de Rimouski".
    RegexRule("facility.quebec", H,
              r"(?i:\b((?:chsld|clsc|chu[ms]?|h[ôo]pital|centre[ \t]+hospitalier"
              r"|(?-i:CH)(?=[ \t]+(?i:de|du|des)\b))[ \t]+(?:(?:de[ \t]+la|de[ \t]+l['’]|du|des|de"
              r"|les|le|la)[ \t]*)?[^\W\d_][\w'’]*(?:-[\w'’]+)*"
              r"(?:[ \t]+[^\W\d_][\w'’]*-[\w'’\-]+)?))", 0.7, group=1, validate=_quebec_name,
              on_view=False),
    # A Latin American clinic by its name where someone was seen or goes: "last seen at
    # Clínica Familiar Vermont"; not a named interview ("Entrevista Clínica Estructurada").
    RegexRule("facility.clinica", H,
              rf"(?i:\b(?:at|to|from|in)[ \t]+)((?:Cl[ií]nica|CL[IÍ]NICA)"
              rf"(?:[ \t]+(?:(?i:de[ \t]+la|del|de|la|los|las)[ \t]+)?{UP}[\w'’\-]+){{1,3}})", 0.65,
              group=1, on_view=False),
    # A British general practice by its name, after the GP: "GP (Fernside Surgery) to be
    # informed", "GP: Dr Amin, Castle Mead Surgery"; not a surgical service ("General Surgery").
    RegexRule("facility.gp_surgery", H,
              rf"(?i:\b(?:gp|general[ \t]+practitioner)\b)[^\n]{{0,30}}?\b((?!{_SURGICAL})"
              rf"{UP}{LETTER}+(?:[ \t]+{UP}{LETTER}+)?[ \t]+(?:Surgery|Practice))\b", 0.6,
              group=1),
    # "transferred from our lady of the tallow", "Our Lady of Lourdes": a Catholic hospital's name
    # in any case.
    RegexRule("facility.our_lady", H,
              r"(?i:\b(our[ \t]+lady[ \t]+of[ \t]+(?:the[ \t]+)?[a-z'’]+"
              r"(?:[ \t]+(?:hospital|medical[ \t]+center|health|rehab|manor|home))?))\b", 0.7,
              group=1),
    RegexRule("facility.saint", H, rf"{MOVE_TO_PLACE}(St\.?[ \t]+{UP}{LETTER}+(?:['’]s)?)\b", 0.65,
              group=1),
    # Not a service's room or diet: "To EP lab Mon", "to IR suite", "advance to ADA diet".
    # Where a patient is moved: "transfer to CMC", "d/c to QVL".
    RegexRule("facility.acronym", H,
              rf"{_TRANSFER}([A-Z]{{2,6}})(?![\w\-/]){_NOT_A_ROOM}", 0.6, group=1,
              validate=_moved_to_acronym),
    # After a bare "at", "to" or "from" ("s/p cath at CVRMC", "EMS to MBRMC"): no shorthand,
    # and no setting or dose after it ("NOW -110 TO -130 AT BFR 180", "TO LANTUS 18U").
    RegexRule("facility.acronym_at", H,
              rf"(?i:\b(?:at|to|from)[ \t]+(?:the[ \t]+)?)([A-Z]{{2,6}})(?![\w\-/]){_NOT_A_ROOM}"
              r"(?![ \t]*(?:[+\-]?\d+(?![/\d])|\+))", 0.6, group=1, validate=_acronym_at),
    # An institution's acronym before its staff: "per QVL RT", "Bed per HFCH nursing
    # supervisor", "QVL case mgr".
    RegexRule("facility.acronym_staff", H,
              rf"(?<![\w/\-])([A-Z]{{3,6}})(?={STAFF_AFTER})", 0.5, group=1,
              validate=_staff_acronym),
    # Lower-case notes: only after a transfer phrase ("switched to zosyn" is not a place).
    RegexRule("facility.acronym_lower", H, rf"{_TRANSFER}([a-z]{{2,6}})(?![\w\-/])", 0.5,
              group=1, validate=_moved_to_acronym),
    RegexRule("facility.head", H,
              rf"\b(?<!/)((?:{UP}{LETTER}*(?:['’]s)?|St\.)(?:[ \t]+{_TOKEN}){{0,4}}"
              rf"[ \t]+{_HEAD})\b(?![ \t]+(?i:day)[ \t]*#?\d)"  # "hospital day 2": a count
              r"(?![ \t]*(?i:(?:no|num|number)\b\.?[ \t]*:|#))",  # "HOSP NO:", a field label
              0.7, group=1, validate=_named_head),
    # A town's fire or police department: the town is the identifier ("volunteer ff with
    # Tamsworth Fire Dept", "HARLOW POLICE DEPARTMENT").
    RegexRule("facility.department", Label.LOCATION,
              rf"\b((?:{UP}{LETTER}+)(?:[ \t]+{UP}{LETTER}+)?)[ \t]+"
              r"(?:(?i:fire|police|sheriff['’]?s?)[ \t]+(?i:dept\b\.?|department|company|station)"
              r"|PD\b(?=[ \t]+(?i:officer|ofc|det)))",
              0.6, group=1,
              validate=_named_head_word),
    # Vendors and psychiatric units by a name and what they are, in any case of the head:
    # "Corliss Ambulance", "Quenby Home Oxygen", "Lattimer Specialty Rx", "Wendover Pavilion",
    # "Brightwater Behavioral"; the name is a word no English or shorthand list holds ("BLS
    # AMBULANCE", "Supplemental Oxygen", "ON HOME OXYGEN" name none).
    # Two words whose first is a name ("Sorrel Point Pavilion"), else one ("VENDOR TIDEWELL
    # HOME MEDICAL": the vendor is Tidewell).
    RegexRule("facility.vendor", H,
              rf"\b({UP}{LETTER}+[ \t]+{UP}{LETTER}+[ \t]+{_VENDOR_HEAD})\b{_NOT_A_LIST}", 0.6,
              group=1, validate=lambda text: _named_vendor(text.split()[0])),
    RegexRule("facility.vendor_one_word", H,
              rf"\b({UP}{LETTER}+[ \t]+{_VENDOR_HEAD})\b{_NOT_A_LIST}", 0.6,
              group=1, validate=_named_vendor),
    RegexRule("facility.company", H,
              rf"\b({UP}[\w\-]*(?:,?[ \t]+{_TOKEN}){{0,3}},?[ \t]+{_SUFFIX}\b\.?){_NOT_LIMITED}",
              0.8, group=1, validate=_named_company),
)
