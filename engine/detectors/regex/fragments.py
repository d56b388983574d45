"""Pattern fragments shared by several rule families."""

from __future__ import annotations

# Upper/lower case letter classes beyond ASCII (names of diverse origins: Sedláčková,
# Şahin, Ødegaard), built once from Unicode properties since `re` has no \p{Lu}.
_RANGES = ((0x41, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF), (0x1E00, 0x1EFF))
UPPER_CHARS = "".join(chr(c) for lo, hi in _RANGES for c in range(lo, hi + 1)
                      if chr(c).isupper() and chr(c).isalpha())
LOWER_CHARS = "".join(chr(c) for lo, hi in _RANGES for c in range(lo, hi + 1)
                      if chr(c).islower() and chr(c).isalpha())


def char_class(chars: str) -> str:
    """``[chars]`` (letters: nothing is escaped) with runs of consecutive code points written
    as ranges ("A-Z"). Same set, same compiled code, ~25 % fewer items to parse: the ~340
    copies of UP and LOW in the rules are most of their compile time at start-up."""
    points = sorted(set(map(ord, chars)))
    runs: list[list[int]] = []
    for c in points:
        if runs and runs[-1][1] == c - 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return "[" + "".join(chr(a) + ("-" if b > a + 1 else "") + (chr(b) if b > a else "")
                         for a, b in runs) + "]"


UP = char_class(UPPER_CHARS)
LOW = char_class(LOWER_CHARS)
LETTER = r"[^\W\d_]"

# One capitalised name token: "Smith", "O'Neil", "McDonald", "Jean-Luc", "MacKenzie".
NAME_TOKEN = rf"{UP}(?:['’]{UP})?(?:{LOW}|{UP}(?={LOW}))*{LOW}(?:['’\-]{UP}?{LOW}+)*"
INITIAL = rf"{UP}\.?"
# A personal name: one to four tokens, initials allowed between ("Jane Q. Doe").
# Newlines never join tokens (a signature line must not swallow the next line).
# A run of three or more blanks separates form fields: "Marlene Herrera   Cell: 212-3540".
_GAP = r"[ \t]{1,2}(?![ \t])"
PERSON_NAME = (rf"{NAME_TOKEN}(?:{_GAP}(?:{INITIAL}{_GAP})?{NAME_TOKEN}){{0,2}}"
               rf"|{INITIAL}[ \t]?(?:{INITIAL}[ \t]?)?"
               rf"(?!(?:She|He|The|This|His|Her|They|We|It|And)\b){NAME_TOKEN}")

MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
         r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
WEEKDAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?"

# Clinical credentials after a provider's name.
CREDENTIALS = (r"(?:M\.?D\.?|D\.?O\.?|MBBS|MBChB|Ph\.?D\.?|R\.?N\.?|N\.?P\.?|PA-C|P\.?A\.?"
               r"|FRCPC|FRCSC|FRCP|FACP|FACS|CCFP|DDS|DMD|PharmD|RPh|MSW|RSW|LPN|RD|MPH|MSc"
               r"|OT|PT|DPT|CNS|CRNA|APRN|FNP|MRCP|DNP)")

# The same credentials as words, casefolded: one alone is nobody's name ("LICSW", "M.Div"), one
# after a name is no part of it ("A. DUBOIS LMSW", "per j. okonkwo rt").
CREDENTIAL_WORDS = frozenset({"rn", "rt", "rrt", "md", "np", "lpn", "cna", "crna", "slp", "pharmd",
                              "msw", "lcsw", "licsw", "lmsw", "lmhc", "lpc", "cadc", "ccm", "cgc",
                              "rd", "pa-c", "pgy", "phd", "m.div", "mdiv", "bcc", "cnsd"})

# The shift or post of the one who holds a role: never a name before it ("report given to floor
# RN", "CHARGE RN AWARE", "Covering MD").
POST_WORDS = frozenset("day night eve evening noc charge float covering oncoming bedside floor unit"
                       " primary receiving sending accepting transferring outside agency travel"
                       " pool staff team".split())

# How a clinician is reached, after the name: "NGO PGR 4-1176", "dr patel vocera".
PAGER_WORDS = frozenset({"pgr", "pager", "pg", "bpr", "beeper", "vocera", "ext", "cell"})

# Events in a history line after which a two-digit number is a year ("MI '92", "CABG 81").
HISTORY_EVENTS = (r"mi|nstemi|stemi|cabg|pci|ptca|stent|cva|tia|stroke|dvt|pe|aaa|avr|mvr|tvr"
                  r"|chf|afib|ppm|aicd|lap\s+chole|chole|appy|tah|thr|tkr|dx|dx'd"
                  r"|diagnosed|s/p|hx")

# Charting events before a month/day without a year ("extub 4/1", "line 8/5", "floor 12/13").
CHART_EVENTS = (r"extub\w*|intub\w*|reintub\w*|line|lines|aline|a-line|picc|cvl|cordis|swan|foley"
                r"|ett|trach\w*|peg|placed|inserted|removed|pulled|changed|started|stopped|restarted"
                r"|d/c'?d?|dc'?d|d/ced|held|sent|floor|transferred|transfer|tx'?d|admit\w*|adm"
                r"|discharg\w*|surgery|surg|cabg|cath|op|post-?op|ir|echo|ct|cta|mri|cxr|egd"
                r"|tee|ercp|done|due|scheduled|sched|planned|last|next|since|on|until|till|from"
                r"|dated?|as\s+of|begun|began|rec'?d|received|given|culture[sd]?|cx|bcx|ucx"
                r"|fall|fell|seizure|code|arrest|event|died|expired|born|dob|visit|appt|f/u|seen"
                r"|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
                r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|yesterday"
                r"|avail\w*|(?-i:OR)|dc|dc'?d|mtg|meeting|soc|filed|pickup|appeal|readmit\w*"
                r"|lap|stemi|nstemi|vap|coma|step-?down|labs?|bmp|cbc|trach'?d|intubated"
                # "bed avail 2/18", "to OR 10/8" (operating room), "dc'd 9/3", "mtg 5/29"
                r"|adm|index|prior|f/u|expected|pending|accepted|downgraded|upgraded"
                # procedures and injuries: "sphincterotomy 6/1", "IVC filter 12/8"
                r"|\w+(?:ectomy|otomy|ostomy|plasty|scopy|pexy)|resection|repair|coiling|filter"
                r"|fusion|biopsy|bx|ablation|transplant|stent|stented|orif|crani\w*|mvc|onset"
                r"|swallow|pheresis|plasmapheresis|study|scan|eeg|emg|tee|cardioversion|washout"
                # "PRESENTED TO OSH 1/3", "COMPARED W/ 4/5", "TOMORROW 1/3 VS 1/4"
                r"|presented|compared|tomorrow|tmrw|anastomosis|epilepticus"
                r"|dialysis|hd|ivig|chemo|xrt|rad|ep|ptca|pci|lp|thoracentesis|paracentesis"
                r"|olt|oltx|lvad|vad|coiled|clipped|cathed|scoped|tapped|drained|embolized|repaired|resected"
                r"|debrided|grafted|biopsied|ablated|cardioverted|shocked|trached|pegged"
                # lines, studies and cultures: "R IJ TLC 6/7", "TCD 11/24", "sputum 6/7 NF"
                r"|tlc|cvc|tte|tcd|bal|bronch\w*|sputum|urine|ua|diff|contrast|film"
                r"|dx|pre-?op|pressors|presented|bed"
                # "CVVHDF INITIATED 4/4", "OR TIME TENTATIVE 3/8", "DECLARED 3/7"
                r"|initiat\w*|commenced|resumed|completed|declared|tentative|tentatively"
                # "Insurance auth obtained 2/3", "MOLST signed 4/2", "appt booked 5/1"
                r"|obtained|approved|signed|booked"
                # burns and travel: "plan autograft ~11/30", "returned 1/6 from 3 wks away"
                r"|debridement|autograft|graft|returned"
                # a list's heading: "Night Float Sign-out 1/9"
                r"|sign[ \t-]?out|handoff|hand-off"
                # a family's appointments: "UPCOMING HEARING 3/4", "funeral 6/2", "flight 5/9"
                r"|(?<!of[ \t])hearing|court|funeral|flight|arriv\w*"
                # a follow-up visit: "Follow-up: Burn Clinic 4/8", "f/u lipid clinic 5/2"
                r"|clinic|follow[ \t-]?up"
                # how the injury happened: "METH LAB EXPLOSION 5/2", "house fire 3/9", "GSW 6/1"
                r"|explosion|fire|assault\w*|gsw|stabbed|stabbing|crash|mva"
                r"|accident|drown\w*|overdose"
                # a fever's course: "T 37.2 (DEFERVESCED 2/9)"
                r"|deferves\w*"
                # a device put in or taken out: "HeartMate 3 implanted 1/8", "PICC exchanged 2/4"
                r"|implanted|explanted|inserted|exchanged")
# What a person or a service is after being told: "MORGUE AWARE", "dr akana paged".
TOLD = r"aware|notified|paged|updated|informed|called|contacted"
# "s/p CABG x3 3/2", "s/p MVC (unrestrained driver) 10/3": status post, then the date on the
# same line within a few words.
STATUS_POST = r"s/p\b[^\n]{0,40}?"
# "d/c to Park 6A 2/6", "transferred to Kessler 3 on 4/2", "coiled at St. Anselm's 9/21": a move
# or an event, then where, then the date ("St." may stop inside the place).
MOVED_TO = (r"(?:d/c'?d?|dc'?d|discharged|transferred|transfer|sent|moved|tx'?d|coiled|clipped"
            r"|cathed|intubated|admitted|seen|presented|arrived|brought)[ \t]+(?:to|from|at|in)\b"
            r"(?:[^\n,;.]|(?<=\bst)\.|(?<=\bSt)\.|(?<=\bST)\.){0,40}?")
# A note's heading, then its date on the same line: "MICU PROGRESS NOTE - 1/3", "attending
# addendum 3/3", "late entry for 4/9", "Progress Note (MICU) — 6/9", "ADDENDUM TO H&P 1/7".
NOTE_HEADING = (r"(?i:^[^\d\n]{0,40}\b(?:note|addendum|sign[ \-]?out|hand[ \-]?off|summary"
                r"|late[ \t]+entry|h[ \t]?&[ \t]?p)(?:[ \t]+(?:for|of|on|re))?"
                r"(?:[ \t]*\([^()\d\n]{1,20}\))?[ \t:,\-–—]*)")
# Military ranks as written before a surname ("SGT WHITLOCK", "1SG Okonkwo", "MAJ Lindqvist").
MILITARY_RANKS = ("pvt", "pv2", "pfc", "spc", "cpl", "sgt", "ssg", "sfc", "msg", "1sg", "sgm",
                  "csm", "2lt", "1lt", "cpt", "capt", "maj", "ltc", "col", "cdr", "lcdr", "ens",
                  "cmdr", "wo1", "cw2", "cw3", "cw4", "po1", "po2", "po3", "cpo", "a1c", "sra",
                  "ssgt", "tsgt", "msgt", "lcpl")
# Kin in the family's language, said before a name ("calls pt Babcia Jadzia", "Family calls
# her Nanay Cora", "abuela Cuca", "Teta Samira"); not one that is a given name too ("Lola",
# "Tia", "Tito").
KIN_TITLES = frozenset({"babcia", "dziadek", "babushka", "dedushka", "abuela", "abuelo",
                        "abuelita", "abuelito", "tía", "tío", "nonna", "nonno", "vovó", "vovô",
                        "avó", "avô", "manang", "manong", "kuya", "nanay", "tatay", "inay",
                        "itay", "halmeoni", "halmoni", "harabeoji", "teta", "jiddo", "sitto",
                        "sitti", "ammo", "khalto", "ammu"})
# Holidays name a day of the year: "Christmas Eve", "Labor Day", "the Fourth of July".
HOLIDAY = (r"(?:(?:russian|orthodox|ukrainian|old[ \t]+calendar|coptic|armenian)[ \t]+)?"
           r"(?:christmas|xmas)(?:[ \t]+eve)?|new[ \t]+(?:year|yr)'?s(?:[ \t]+(?:eve|day))?"
           r"|thanksgiving|three[ \t]+kings(?:'?[ \t]+day)?|d[ií]a[ \t]+de[ \t]+(?:los[ \t]+)?reyes"
           r"|easter(?:[ \t]+sunday)?|good[ \t]+friday|labou?r[ \t]+day|memorial[ \t]+day"
           r"|independence[ \t]+day|(?:the[ \t]+)?fourth[ \t]+of[ \t]+july|july[ \t]+4th"
           r"|halloween|valentine'?s[ \t]+day|veterans'?[ \t]+day|columbus[ \t]+day"
           r"|presidents'?[ \t]+day|mlk[ \t]+day|mother'?s[ \t]+day|father'?s[ \t]+day"
           r"|st\.?[ \t]+patrick'?s[ \t]+day|canada[ \t]+day|boxing[ \t]+day|juneteenth"
           r"|victoria[ \t]+day|remembrance[ \t]+day|(?:lunar|chinese)[ \t]+new[ \t]+year"
           r"|hanukk?ah|chanukk?ah|kwanzaa|rosh[ \t]+hashanah|yom[ \t]+kippur|passover|diwali"
           # "home for eid"; not "EID #", "Appropriate EID regimen" (extended-interval dosing)
           r"|eid[ \t]+al-?(?:fitr|adha)"
           r"|(?-i:Eid|eid)(?![ \t]*[#:\d\-])(?![ \t]+(?:regimen|dosing|dose|protocol)\b)"
           # festivals of the families an ICU serves: "home by hmong new year", "before khmer
           # new year next week", "visited for Mid-Autumn Festival", "over Vaisakhi"
           r"|(?:hmong|khmer|cambodian|lao|laotian|thai|tamil|sinhala|sinhalese|vietnamese"
           r"|persian|iranian)[ \t]+new[ \t]+year|chaul[ \t]+chnam(?:[ \t]+thmey)?"
           r"|(?:mid-?autumn|moon)[ \t]+festival|vaisakhi|baisakhi"
           r"|navratri|pongal|onam|chuseok|seollal|nowruz|norooz|songkran|pioneer[ \t]+day"
           # Ethiopian and Eritrean feasts ("hoped to be home for Timkat", "to see Genna")
           r"|timkat|timket|genna|enkutatash|meskel|fasika"
           # Polish doughnut day and the Assyrian new year ("home for paczki day", "for Kha
           # b-Nisan"), Mardi Gras
           r"|p[aą]czki[ \t]+day|fat[ \t]+(?:thursday|tuesday)|kha[ \t]+b-?nisan|akitu"
           r"|mardi[ \t]+gras"
           # Vietnamese new year after a word of time ("home for Tet", "until after TET"), not
           # tetanus ("due for tet booster")
           # (the look-ahead first: the look-behinds are tried only before a "t")
           r"|(?=t)(?:(?<=home[ \t]for[ \t])|(?<=home[ \t]by[ \t])|(?<=after[ \t])"
           r"|(?<=before[ \t])|(?<=until[ \t])|(?<=over[ \t])|(?<=during[ \t])"
           r"|(?<=since[ \t]))t[eế]t\b"
           r"(?![ \t]+(?:booster|shot|vaccine|vax|tox|toxoid|ppx|status|imm))"
           # families' own: "a party on Nochebuena", "home by st-jean-baptiste"
           r"|nochebuena|nochevieja|navidad|cinco[ \t]+de[ \t]+mayo"
           r"|d[ií]a[ \t]+de[ \t]+(?:los[ \t]+)?(?:muertos|reyes)"
           r"|la[ \t]+(?:st|saint)[ \t\-]jean|(?:st|saint)[ \t\-]jean[ \t\-]baptiste"
           r"|f[eê]te[ \t]+nationale"
           # Jewish and Christian feasts that name a day: "fasted on Tisha B'Av", "admitted over
           # Pesach", "ashes for Ash Wednesday"
           r"|purim|pesach|passover|sukkos|sukkot|shavuos|shavuot|simchas[ \t]+torah"
           r"|lag[ \t]+b['’]?omer|tisha[ \t]+b['’]?av|palm[ \t]+sunday|ash[ \t]+wednesday"
           r"|(?:holy|maundy)[ \t]+thursday|mardi[ \t]+gras|fat[ \t]+tuesday|all[ \t]+saints['’]?"
           r"[ \t]+day")
# A clock or a part of the day right after a month/day: "4/13 0446", "4/18 5am", "1/9 noon",
# "4/1 12 PM", "remove 2/4 AM", "3/8 0200." (a sentence's end, not "0200.5").
CLOCK_AFTER = (r"[ \t,]*(?:[@~][ \t]*)?(?:(?:[01]\d|2[0-3]):?[0-5]\d(?![\d/%]|\.\d)"
               r"|(?:1[0-2]|0?[1-9])(?::[0-5]\d)?[ \t]?(?i:am|pm)\b|(?i:noon|midnight|am|pm)\b)")

# Verbs whose subject a patient named after "pt" is ("PT NOEL REMAINS INTUBATED").
SUBJECT_VERBS = (r"had|has|remains|remained|is|was|states|stated|reports|reported|denies|denied"
                 r"|tolerated|tolerating|slept|rested|appears|appeared|continues|cont|c/o"
                 r"|complains|coding|coded|arrested|desatted|desatting|seized|seizing"
                 r"|self-extubated|became|fell|pulled|woke|awoke"  # "pt fisher self-extubated"
                 r"|returned"  # "PT HEINE RETURNED FROM OR 2040"
                 r"|reached|grabbed|refused|requested|asked|tried|attempted"  # "PT TABBEE REACHED"
                 r"|transported"  # "pt chang transported to ir"
                 # what the patient is now: "PT BEGAY AWAKE", "pt chee more awake today", "PT
                 # CHAVIS READY FOR DC", "pt hogan taken to ct", "pt fisher post op day 1"
                 r"|awake|(?:more|less)[ \t]+awake|ready|taken|post[ \t-]?op")

# A 24-hour clock written as four digits: "0530", "2217".
# An intensive or recovery care unit by its acronym, in lower case: "micu", "cticu", "neuroicu",
# "ccu", "csru", "pacu".
ICU_UNIT = r"(?:[a-z]{0,5}icu|ccu|csru|pacu)"

# An age's unit after its number: "63 YO", "46 y/o", "52 y.o.".
YEARS_OLD = r"(?i:yo|y/o|y\.o\.)"

# A child's age by its unit, "old" optional after it: "2 MO", "6 wk", "6 DAY OLD".
CHILD_AGE_UNIT = r"(?i:days?|wks?|weeks?|mos?|months?)"

# A sign-out list's bed: "BED 4", "Rm 5", "room #12", "bay 3B".
BED = r"(?i:bed|rm|room|bay)[ \t]*#?\d{1,3}[A-Za-z]?"
# A bed right before an item's patient: "BED 6 BOWLING 39 F", "Bed 3 M. Alston", "RM 12 - ".
BED_BEFORE = rf"\b{BED}[ \t]*[-–:.)]?[ \t]*\Z"

HHMM = r"(?:[01]\d|2[0-3])[0-5]\d"
# An e-mail address: the rule proposes it, the resolver cuts a model's span to it.
EMAIL = r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}"

# Staff or an office of an institution right after its name: "per QVL RT", "HFCH nursing
# supervisor", "QVL case mgr".
STAFF_AFTER = (r"[ \t]+(?:RT|RN|MD|NP|SW|CM|(?i:case[ \t]+(?:mgr|manager)|nursing|charge"
               r"|admissions|records|staff|liaison|intake|transfer[ \t]+center|tumor[ \t]+board"
               r"|rad[ \t]+onc))\b")
