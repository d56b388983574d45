"""Regenerate resources/dictionaries/clinical_shorthand.txt from the abbreviation inventories.

    python -m engine.resolution.build_shorthand          # rewrite the file
    python -m engine.resolution.build_shorthand --check  # exit 1 if it is stale

Source: ../shared/data/clinical_abbreviations/ (Grossman Liu et al., Medical Abbreviation and
Acronym Meta-Inventory, CC BY 4.0). The Vanderbilt clinic and discharge inventories give every
spelling variant seen with its count: a variant seen at least ``MIN_COUNT`` times is taken
(casefolded, edge dots stripped); the sign-out inventory (``sense_distribution_448.txt``) is
small and curated, so each of its abbreviations is taken. Common en_US first names and
surnames (Faker) and places (the shipped location gazetteer) are left out, so that "Al", "Ed"
or "Troy" stay names: those need context, not a vocabulary. ``CURATED`` adds ICU charting
words the inventories lack (lines, devices, vent modes; some are also surnames, "foley",
"swan": a strong name context still wins, see resolution/shorthand.py).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from engine.detectors.dictionary.lists import entries, sections
from engine.paths import resource, shared_data_dir

SHORTHAND_FILE = ("dictionaries", "clinical_shorthand.txt")
MIN_COUNT = 3
_VARIANT = re.compile(r"^(.+)_(\d+)$")
# Senses that name an institution ("cmc", "cpmc"): a hospital's acronym is PHI.
_INSTITUTION = re.compile(r"(?i:medical\s+cent|hospital|university|clinic\b|institute)")
_WORDLIKE = re.compile(r"[a-z][a-z0-9'/&\-]*[a-z0-9]?|[a-z]")

# ICU and nursing shorthand that the inventories (clinic, discharge, sign-out) do not hold.
CURATED = (
    "aline", "a-line", "art-line", "artline", "cline", "c-line", "picc", "foley", "hickman",
    "swan", "swan-ganz", "fem", "femoral", "drng", "drsg", "oob", "ooc", "trached", "trach",
    "ett", "ogt", "ngt", "peg", "jp", "hemovac", "pleurovac", "carevue", "metavision", "epic",
    "rrt", "perla", "perrl", "perrla", "ps", "psv", "ac", "simv", "imv", "pc", "pcv", "prvc",
    "cpap", "bipap", "aprv", "hfov", "mn", "osh", "lcx", "rca", "lad", "om", "pda", "ho",
    "cvvh", "cvvhd", "cvvhdf", "crrt", "iabp", "ecmo", "ptx", "abg", "vbg", "sbt", "rsbi",
    "held", "cont", "contd", "cont'd", "rec'd", "recd", "recieved", "arousable", "weaned",
    "intubated", "extubated", "extub", "sedated", "propofol", "fentanyl", "versed", "levophed",
    "neo", "vanc", "vanco", "zosyn", "lasix", "heparin", "insulin", "pao2", "fio2", "peep",
    "resp", "neuro", "cv", "gi", "gu", "id", "heme", "endo", "skin", "social", "dispo",
    # suction, toileting, diets and positions ("OGT to LCS", "to BR w/ assist", "at NOC")
    "lcs", "lws", "lis", "lcws", "lwcs", "noc", "br", "bsc", "nare", "nares", "dangled",
    "cmo", "dnr", "dni", "portex", "shiley", "blakemore", "peptamen", "nepro",
    "pneumoboots", "venodynes", "mitts", "ventric", "evd", "ota", "kardex", "granddtr", "mco",
    # scores charted by name ("cont ciwa", "ciwa scores")
    "ciwa", "cows", "rass", "cpot", "nihss", "gcs", "bps", "camicu", "cam-icu",
    # routes, oxygen and lobes a patient is weaned or bled "to"/"from" ("GTT TO SC", "WEAN
    # TO NC", "BLEED FROM RUL")
    "sc", "subq", "sq", "nc", "ra", "fm", "nrb", "hfnc", "rul", "rml", "rll", "lul", "lll",
    # limbs ("lungs clear le dopplers", "W/D TO PAIN BILAT LE")
    "le", "ue", "rle", "lle", "rue", "lue", "bilat",
    # services a note updates or calls ("updated by nsurg"), pacing modes, "to cmd"
    "nsurg", "nsgy", "ctsurg", "cts", "ortho", "cards", "pulm", "onc", "renal", "psych", "geri",
    "pall", "palliative", "slp", "woc", "wocn", "vna", "vvi", "vvir", "ddd", "dddr", "aai",
    "voo", "doo", "cmd", "cmds", "ltach", "ltac", "snf", "stepdown",
    # output, devices and charting words a model takes for names ("UO 400CC", "DEFIB 200J",
    # "DOBHOFF", "insurance auth", "nsg station", "ADDENDUM TO PREV", "CT TO WS", "HD#3")
    "uo", "uop", "defib", "defibbed", "dobhoff", "adeq", "racemic", "auth", "nsg", "prev",
    "ws", "hd", "inc", "midline", "trop", "tropo", "lido", "hemi", "paco2", "pao2", "sitter",
    "asia",
    # meetings, roads, attention lines, junctions, suction, approximations, requests, forms,
    # hard of hearing, transplants, credentials, dressings and creams in ALL CAPS notes
    "mtg", "mtgs", "hwy", "attn", "jxn", "jct", "elev", "liws", "lils", "approx", "req",
    "pri", "hoh", "olt", "cnsc", "silvadene", "cavoatrial", "guaiac", "piv", "icp",
    "trach'd", "trachd", "intub'd", "extub'd", "peg'd", "tx'd", "sx'd", "bx'd", "cx'd",
    "camino",  # the ICP monitor ("Camino ICP 14-22")
    # shifts and posts charted short before a role ("FROM DAYSHIFT RN", "dr okonkwo attg")
    "dayshift", "nightshift", "attg", "attd",
    # an ethanol level among the labs ("BG 246 EtOH 42 ABG 7.36/41")
    "etoh",
    # police, quality office, quadrants, communicating arteries ("from PD", "to QI", "to LUQ")
    "pd", "qi", "luq", "ruq", "llq", "rlq", "acom", "pcom",
    # drainage, resuscitation, assist devices, pheresis ("Foley to CD", "from CPR", "prior to
    # LVAD eval", "PER PHERESIS RN")
    "cd", "cpr", "lvad", "rvad", "bivad", "impella", "pheresis", "apheresis", "plasmapheresis",
    "passy-muir", "passy", "pmv",  # the speaking valve
    # dialysis and sheath catheters by maker, diffuse axonal injury
    "quinton", "mahurkar", "trialysis", "permcath", "vascath", "tesio", "cordis",
    "dai", "aecopd",
    # a craniotomy or craniectomy and the deep femoral artery ("goal now 35-40 post crani", "r
    # profunda femoris branch")
    "crani", "profunda", "femoris",
    "asp",  # aspiration, in a problem list ("#Asp PNA - amp/sulbactam")
    # units and who staffs them ("TRANSFER TO STEP-DOWN", "W/ HOUSESTAFF", "from CSRU RN")
    "step-down", "housestaff", "csru", "cvicu", "tsicu", "neuroicu", "ccu", "micu", "sicu",
    "brady", "tachy", "bradycardic", "tachycardic",  # "CV: BRADY TO 38", "PT BRADY TO 40S"
    # drugs as charted short ("SWITCHED TO CASPO", "on dapto", "amio gtt")
    "caspo", "vori", "posa", "ampho", "dapto", "tobra", "moxi", "azithro", "doxy", "clinda",
    "cefaz", "ceftaz", "ceftri", "mero", "ertapenem", "nafcillin", "oxacillin", "dobut",
    "milri", "dilt", "amio", "midaz", "kphos",
    # services, devices, drainage and pharmacy notes ("by gen surg", "yankauer at bs",
    # "ADDRESS ANTICOAG", "Pharmacy Kinetics Note", "sat EOB", "faxed to HMO")
    "surg", "anticoag", "yankauer", "serosang", "serosanguinous", "serosanguineous", "tele",
    "telemetry", "kinetics", "pharmacokinetic", "pharmacokinetics", "aminoglycoside",
    "nomogram", "hoyer", "slough", "eob", "hmo", "ppo", "als", "bls", "ok", "bos", "sys",
    "mainstem", "mepilex", "silvadene", "xeroform", "integra", "dopplerable", "dopplered",
    # services and protocols charted after "per" ("per neurosurg", "covered per riss")
    "riss", "neurosurg", "neurosurgery", "ophtho", "opo", "ardsnet", "ciwa-ar", "hospitalist",
    "heme-onc", "fast-track", "nephro", "intensivist",
    # organ bank, tests, equipment, orders and APRV settings ("NEOB notified", "send PCP DFA",
    # "by DME vendor", "faxing MOLST", "Phigh 28, Plow 0, Tlow 0.6", "FHT 140S", "TCDS DONE")
    "neob", "dfa", "dme", "molst", "polst", "phigh", "plow", "tlow", "thigh", "nst", "fht",
    "tcd", "tcds", "alae", "ala",
    # continence, abdominal closure and open-abdomen devices ("pt incont of urine", "ABThera")
    "incont", "abthera", "vac", "wound-vac",
    # labs, syndromes, services and drugs as charted short ("HUS/AKI", "anca
    # pending", "FROM EW", "narrowed to PCN G", "RHEUM AWARE")
    "hus", "anca", "ew", "pcn", "rheum",
    # liver and GI shorthand, burn units, labs a street rule takes for words ("UNa <10",
    # "severe aud", "txp floor", "PHG", "at GEJ", "PEth", "BICU", "alp 188 ggt 540")
    "una", "aud", "txp", "phg", "gej", "peth", "bicu", "sem", "lusb", "rusb", "lsb", "rsb",
    "ggt", "alp", "ast", "tbili", "dbili", "inr", "ptt", "bun", "plt", "wbc", "hct", "hgb",
    "alb", "ldh", "lfts", "callback",
    # renal and obstetric ICUs: neuro-surgical, trauma and cardiothoracic units, the special
    # care nursery, heparins, a diagnosis, charting verbs and prefixes ("to NSICU", "go to
    # SCN", "transition to LMWH", "progressing to ATN", "back to PREOP wt", "FROM HYPERK")
    "atn", "nsicu", "ticu", "cticu", "pcicu", "scn", "lmwh", "ufh", "preop", "postop", "reeval",
    "redose", "hyperk", "hypok", "hyperkalemic", "precert", "ebl", "qbl", "svd", "pph", "bicarb",
    # tomorrow, screening forms, agencies and dressings ("see pt tmrw", "screened pt:
    # phq-9", "OSHA INVESTIGATION", "na 131 (corr 139)", "AQUACEL AG")
    "tmrw", "tmw", "phq", "osha", "corr", "aquacel", "pneumo",
    # obstetric charting ("CAT I. TOCO: IRRITABILITY", "to postpartum floor", "perinatal rn")
    # diagnoses a patient progresses to, inhaler classes ("progressing to ARDS", "resume
    # LABA/ICS")
    "ards", "aki", "dic", "esrd", "ckd", "laba", "lama", "ics", "inpt", "outpt",
    "fluoro", "toco", "l&d", "postpartum", "antepartum", "intrapartum", "perinatal", "peripartum",
    # stroke, cardiac-arrest, geriatric and endocrine ICUs: exam, rehab and lab shorthand, drugs,
    # devices and long-term care ("extinction to DSS", "superficial to SSS", "mod A to CGA",
    # "SWITCHED TO NOREPI", "SHOCK FROM PYELO", "return to LTC", "csf rbc 8200", "w/ rw",
    # "Endovasc aware", "rewarm via CoolGard")
    "dss", "sss", "cga", "norepi", "pyelo", "ltc", "rbc", "gluc", "prot", "rw", "endovasc",
    "whiteboard", "coolgard", "arni", "alf",
    # case management, ENT and pulmonary ICUs: schedules, services, pumps, pressures and leads
    # ("chair close to home, TIW", "transfer to ent step-down", "from PCA to oxycodone",
    # "2.8 ata", "12 LEAD ST", "bnp 3210")
    "tiw", "mwf", "tths", "ent", "pca", "ata", "bnp", "lead",
    # in capitals too: what a resident came to do, where a neighbour drives, an osmolar gap,
    # yesterday, a total, plasma, extranodal extension, mouth opening, assays, remifentanil,
    # diffusion imaging, a trach's cuff ("CAME TO EVAL", "DRIVES PT TO APPTS", "OSM GAP CLOSED",
    # "1600 YEST. REPEAT CT", "2 FFP. TOT CT OUTPUT", "[ENE] PRESENT", "MIO 28 MM", "PF4 ELISA",
    # "PROPOFOL/REMI TIVA", "MRI DWI", "PT CUFFLESS")
    "eval", "appt", "appts", "osm", "yest", "tot", "ffp", "ene", "mio", "elisa", "remi", "tiva",
    "dwi", "cuffless", "cuffed", "venturi",
    # bariatric, travel and hematology ICUs ("revised to RYGB", "MVI to TPN", "OSTOMY RN NOTE",
    # "8-10 WK TST/IGRA", "post ica 1.10", "pt post-ictal")
    "rygb", "tpn", "ostomy", "igra", "ica", "ictal", "postictal", "post-ictal",
    # neonatal, oncology and ECMO ICUs: ventilation, birth weight, umbilical lines, the liver
    # edge, the oxygenation index, nutrition, nurse practitioners, incubators, cell therapy,
    # circuits and arrests ("extubate to NIPPV", "down 4.5% from BW", "sampling from UAC",
    # "liver at RCM", "consulted at OI 32", "Pharmacy PN review", "report to NNP", "back to
    # isolette", "resume blina", "progressed to AML", "from VV ECMO", "CC: OHCA")
    "nippv", "nimv", "bw", "uac", "uvc", "rcm", "lcm", "oi", "pn", "nnp", "isolette",
    "cotside", "ems", "aml", "mds", "cll", "cml", "vv", "vv-ecmo", "va-ecmo", "ecls", "ecpr",
    "hf", "vad", "mcs", "ohca", "ihca", "icans", "crs", "car-t", "blina", "leukapheresis",
    "indep", "fdo2",
    # sickle cell and bleeding disorders: a chest syndrome, a dose, a transplant programme, a
    # treatment centre's kind ("recovering from ACS", "titrating to MTD", "Referral to BMT")
    "acs", "mtd", "bmt", "htc",
    # pediatric cardiac and neurosurgical ICUs: the unit, the diagnosis, a tachycardia, the
    # pupillometer's index ("CICU RN", "related to CHD", "JET is common after VSD closure")
    "cicu", "chd", "jet", "npi", "fem-pop", "fem-fem", "fem-ak", "fem-bk", "dass",
    # custody, adolescent, mass-casualty and medevac ICUs: a vaping injury, a drug, hyperbaric
    # oxygen, a handover's form, urology, a helicopter, a TB test, a family meeting
    # ("per EVALI reporting", "after MDMA", "checked by HBO MD", "report given, SBAR",
    # "URO AWARE", "COAST GUARD HELO", "POS QUANTIFERON", "at fam mtg", "ferry on wkend")
    "evali", "mdma", "hbo", "sbar", "uro", "helo", "quantiferon", "fam", "wkend",
    # admission histories and transfer summaries ("septic shock from VAP", "peer mentor from SCI
    # program", "Dobhoff placed by Cortrak")
    "vap", "sci", "cortrak",
    # heart failure, teaching and stroke ICUs: a proximal vessel, an admission, dressings, the
    # umbilicus, weight bearing, vital capacity, a blast device, a pager, suction, bypass,
    # dialysis, paperwork, a drain, a filter's flow, a drug, a fungal antigen, a performance
    # battery, a pump drug ("PCI TO PROX LAD", "CT HEAD FROM ADM", "FUNDUS FIRM AT UMB",
    # "ADVANCE TO WBAT", "PAGED TO PGR", "CHEST TUBE TO SXN", "UNABLE TO WEAN FROM CPB",
    # "TRANSITION TO IHD", "ATTACHED TO CMN", "REVIEW AT QA MEETING", "PULLING AT LD",
    # "remaining to OOP max", "CRYPTO AG NEG", "HOME INOTROPE")
    "prox", "adm", "dsgs", "umb", "wbat", "vc", "ied", "pgr", "sxn", "cpb", "ihd", "cmn", "qa",
    "ld", "bfr", "atra", "oop", "crypto", "inotrope", "inotropes", "sppb", "kub", "flowsheet",
    # stroke and veterans' ICUs: last known well, education, a venous sinus thrombosis, a VA
    # community living center, its homeless programme ("LKW 1310 per husband", "edu: stroke
    # packet", "Bed 11: CVST,", "Needs at CLC:", "HCHV SW CONSULTED")
    "lkw", "edu", "cvst", "clc", "hchv", "perc",
    # renal charting ("Oliguric AKI", "ANEMIA OF CKD - ESA WITH HD")
    "oliguric", "nonoliguric", "non-oliguric", "anuric", "esa", "esas",
    # spinal cord injury and workers' compensation ("referred to WC CM", "auth by EOD",
    # "aspen collar", "CA GLUCONATE")
    "wc", "eod", "collar", "gluconate", "uems", "lems",
    # trauma and surgical recovery ("conversion to IMN", "resident walker already has")
    "imn", "orif", "exfix", "ex-fix",
    # flowsheets ("TTM nursing flowsheet", "responded to IA verapamil", "tegaderm + biopatch",
    # "500 lr bolus")
    "ttm", "ia", "tegaderm", "biopatch", "bolus",
    # substance use and handoffs ("second pt: oud, r thigh abscess", "- dangle at edge of bed")
    "oud", "aud", "sud", "moud", "otp", "dangle", "reeducate", "re-educate",
    # an hourly entry's order ("0500 STAT CT: STABLE CONTUSION")
    "stat",
    # wound care, discharge planning and remote villages ("all pts on lal surfaces", "K. ABERNATHY
    # RN CWOCN", "IRF ADMISSIONS", "wound care to TMA site", "GIVEN TO CCT RT", "referred by
    # cha", "after snowmachine went through river ice", "gillnet skiff", "midwife telehealth")
    "lal", "cwocn", "cwon", "irf", "tma", "cct", "cha", "chap", "snowmachine", "gillnet",
    "telehealth",
    # comfort care and a pharmacist's signature ("shocks at EOL", "family consented to DCD",
    # "pt to morgue", "J. Santos, RPh")
    "eol", "dcd", "dbd", "morgue", "rph",
    # pressure injuries ("sacral Stage 4 PI. Attending Dr. ...", "HAPI", "MDRPI")
    "pi", "hapi", "mdrpi",
    # drains, anticoagulants, epilepsy and the on-call schedule ("2 MEDIASTINAL CT + 1 L
    # PLEURAL CT", "transition to DOAC", "known epilepsy (JME)", "fellow on call - see amion")
    "mediastinal", "pleural", "pericardial", "doac", "doacs", "noac", "jme", "amion",
    # mountain rescue ("short ground carry to LZ", "bystander CPR ..., ROSC in ~3 min")
    "lz", "rosc",
    # military medicine ("Bed 2: PFC, spice ingestion", "Pt: SPC, burned in motor pool fire",
    # "TRANSFER TO MTF", "company cmdr notified")
    "pvt", "pfc", "spc", "cpl", "sgt", "ssg", "sfc", "1sg", "cpt", "maj", "ltc", "lcdr", "cmdr",
    "mtf", "tricare",
    # British units and staff ("Referred by: Medical Reg from AMU", "Extubate to NIV", "d/c
    # from ccot caseload", "SNOD Ashdown", "update consultant on WR"), vehicles and clinics
    # ("thrown from ATV", "outpatient PT at FQHC"), lines and pump limits ("Lines: RIJ
    # ProtekDuo", "5500 rpm / lsl 5200") and an INR meter
    "amu", "mau", "sau", "eau", "hdu", "ccot", "niv", "snod", "sho", "spr", "fy1", "fy2", "wr",
    "atv", "utv", "fqhc", "rij", "lij", "lsl", "coaguchek",
    # a diabetic crisis, a step-down unit ("Rm 10 - HHS, glucose 880", "tx to cvsu step-down")
    "hhs", "cvsu",
    # tropical infections, orthoses and team rounds ("lepto (PCR sent), chikungunya/Zika",
    # "AMBULATES W/ L AFO", "Discussed at IDT rounds", "ot/pt co-treat")
    "zika", "lepto", "dengue", "chikungunya", "afo", "kafo", "idt", "idr", "co-treat",
    "cotreat",
    # a caller's check and metronidazole ("IDENTITY CONFIRMED VIA PT PASSCODE", "CEFTRIAXONE/
    # METRO")
    "passcode", "metro",
    # hyperosmolar therapy and where a drain is levelled ("OSMO Q6H", "releveled at tragus")
    "osmo", "tragus", "phlebostatic",
    # organ donation and its organisations, named nationally ("OPO COORD AWARE", "DONOR UNOS
    # ID", "ENTERED IN DONORNET", "Provincial ODO notified"), hyperbaric oxygen, a surrogate,
    # ventilator pressures and acidoses ("back from HBOT", "DAUGHTER (HCPOA)", "PPEAK 38",
    # "NIF -20", "for MALA", "T2DM VS LADA") and a trauma's word ("bed 8 - polytrauma")
    "opo", "coord", "unos", "donornet", "odo", "hbot", "hcpoa", "ppeak", "nif", "mala", "lada",
    "polytrauma", "tace", "hcc", "ex-lap", "exlap", "ipr",
    # problems as a sign-out heads them ("2. Rhabdo - CK 48k", "1. Vasoplegia -", "HYPONA -")
    "rhabdo", "hypophos", "hypona", "hypok", "hypomag", "cfrd", "sclc", "nsclc", "toxidrome",
    "vasoplegia", "orthostasis", "suicidality", "incl",
    # joint replacements and the help a patient needs to move ("cefazolin at TKA", "improved
    # to SBA w/ BUE support", "CGA x1"), fatty liver disease ("cirrhosis (NASH)")
    "tka", "tha", "tkr", "thr", "tsa", "sba", "cga", "nash", "nafld", "masld",
    # the bedside shivering scale ("titrated to BSAS goal <=1"), heart failure by its ejection
    # fraction ("2. HFrEF - resume carvedilol"), point of care testing ("reported to POC
    # coordinator"), a sensory disability ("pt deafblind (usher), tactile asl")
    "bsas", "hfref", "hfpef", "hfmref", "hfimpef", "poc", "deafblind", "protactile",
    # acetaminophen and a drug class ("ATN from APAP", "edema from CCB"), state child and
    # adult protective agencies ("call from DCFS intake"), prone positioning
    "apap", "ccb", "dcfs", "dcf", "aps", "proning", "deproning", "deproned", "proned",
    # who pays ("PAYER NOTIFIED OF ADMISSION"); not Quebec's "CHSLD", which heads the names
    # of long-term care homes ("RESIDENT OF CHSLD SAINTE-ODILE")
    "payer", "payor",
    # a slow rhythm ("ECG: SINUS BRADY, OSBORN (J) WAVES"); what a patient is, in words no
    # dictionary spells so ("PT COOPERATIVE", "PT BEDBOUND, BRADEN 10")
    "brady", "cooperative", "bedbound", "nonambulatory", "noncompliant", "nonresponsive",
    "hemodynamically",
    # anaesthesia and workers' compensation ("OR NOTIFIED, ANES AWARE", "WORKERS COMP CASE MGR")
    "anes", "comp",
    # haemorrhage into the brain ("ADMITTED W/ L MCA ICH, REMAINS INTUBATED", "bed 7 - asah,
    # hunt-hess 3"), a sign-out's to-do list, tacrolimus, the acute pain service ("catheter
    # placed by apain")
    "ich", "iph", "asah", "todo", "tacro", "apain",
    # resistant organisms ("VAP due to ESBL Klebsiella", "contact precautions for CRE")
    "esbl", "cre", "mdro",
    # metabolic equivalents, or metastases ("functional capacity >4 METs")
    "mets",
    # states of blood and breath a sign-out list gives where a name could stand ("bed 8 -
    # hypoxic, covid neg"), diabetes by type, last known well ("lkw 2215")
    "hypoxic", "hypercarbic", "hypercapnic", "tachypneic", "ketotic", "anasarcic",
    "coagulopathic", "thrombocytopenic", "neutropenic", "leukopenic", "pancytopenic",
    "t1dm", "t2dm", "iddm", "niddm", "lkw",
    # targeted temperature after an arrest and the EEG watched beside it ("arctic sun set to
    # normothermia 37", "CEEG READER CALLED")
    "normothermia", "normothermic", "euthermia", "ceeg", "veeg", "temp", "temps",
    # ampersand shorthand ("Admit H&P - MICU", "I&O", "A&Ox3", "blood c&s")
    "h&p", "i&o", "i&d", "d&c", "a&o", "a&ox3", "a&ox4", "c&s", "t&c", "t&s",
    # cardiac surgical and transplant units ("CSICU RN NOTE 0700-1900")
    "csicu", "cvru", "bmtu", "cvor",
    # hantavirus, a critical access hospital ("hanta r/o", "transferred from CAH")
    "hanta", "cah",
    # fungal antigens by their genus's short name ("URINE BLASTO AG POS")
    "blasto", "histo", "cocci", "crypto",
    # a respiratory ICU, a burn ventilator mode, cardiac surgery, drug-induced liver injury, a
    # pediatric asthma score ("Transfer Summary - RICU to LTACH", "Switched to HFPV (VDR-4)",
    # "csurg fellow aware", "DILI FROM HERBAL TEA", "PRAM 10/12")
    "ricu", "rcu", "hfpv", "csurg", "dili", "pram",
    # congenital heart lesions, a shunt and the drug that keeps a duct open, where a pediatric
    # cardiac sign-out could put a name ("3 - txoov tof pod 8", "hlhs on pge 0.03")
    "tof", "tga", "tapvr", "tapvc", "cavc", "coa", "dorv", "bts", "pge",
    # valve and aortic repairs through a catheter, a heart transplant, a pump's model, where a
    # cardiac sign-out could put a name ("bed 10: tavr pod 1", "Bed 11: OHT POD 6")
    "tavr", "savr", "tevar", "evar", "tcar", "oht", "hm3", "mitraclip",
)

# Short forms of common first names that the en_US list lacks ("Al", "Ed", "Mac").
NICKNAMES = ("al", "ed", "mac", "jo", "di", "flo")


def inventory_words(folder: Path) -> set[str]:
    """Spellings from the inventories above the count threshold."""
    counts: Counter[str] = Counter()
    institutions: set[str] = set()
    for name in ("vanderbilt_clinic_notes.txt", "vanderbilt_discharge_sums.txt"):
        lines = (folder / name).read_text(encoding="utf-8").splitlines()[1:]
        for line in lines:
            cells = line.split("\t")
            if len(cells) < 3:
                continue
            if _INSTITUTION.search(cells[1]):
                institutions.add(_normal(cells[0]))
                continue
            for variant in cells[2].split("|"):
                match = _VARIANT.match(variant.strip())
                if match:
                    counts[_normal(match.group(1))] += int(match.group(2))
    words = {w for w, n in counts.items() if n >= MIN_COUNT}
    signout = (folder / "sense_distribution_448.txt").read_text(encoding="utf-8").splitlines()
    for line in signout:
        cells = line.split("\t")
        if len(cells) >= 2:
            (institutions if _INSTITUTION.search(cells[1]) else words).add(_normal(cells[0]))
    return {w for w in words if _WORDLIKE.fullmatch(w)} - institutions


def _normal(word: str) -> str:
    return word.strip().strip(".").casefold()


def common_names_and_places() -> set[str]:
    """en_US first names and surnames (Faker) and the gazetteer's place names."""
    from faker.providers.person.en_US import Provider

    names = {n.casefold() for n in (*Provider.first_names, *Provider.last_names, *NICKNAMES)}
    raw = resource("dictionaries", "locations.txt").read_text(encoding="utf-8")
    places = {e for _name, body in sections(raw, "location list") for e in body}
    return names | places


def build(folder: Path) -> tuple[list[str], list[str]]:
    """(inventory words, ICU words)."""
    excluded = common_names_and_places()
    icu = set(CURATED)
    return sorted(inventory_words(folder) - excluded - icu), sorted(icu)


def render(built: tuple[list[str], list[str]]) -> str:
    from importlib import metadata

    header = (
        "# Clinical shorthand: abbreviations and spellings that are never a name, place or\n"
        "# facility on their own (engine/resolution/shorthand.py). Generated by\n"
        "# `python -m engine.resolution.build_shorthand`; do not edit.\n"
        "# Contains data from the Medical Abbreviation and Acronym Meta-Inventory (Grossman Liu\n"
        "# et al., 2021; lisavirginia/clinical-abbreviations), licensed under CC BY 4.0\n"
        "# (https://creativecommons.org/licenses/by/4.0/): Vanderbilt clinic and discharge\n"
        "# inventories (Wu et al. 2013) and the sign-out inventory (Stetson et al. 2002).\n"
        f"# Changes: spellings seen >= {MIN_COUNT} times, casefolded, institutions' acronyms\n"
        f"# dropped; common en_US names (Faker {metadata.version('faker')}, a few nicknames) and\n"
        "# gazetteer places removed; [ICU]: words added by hand (lines, devices, vent modes,\n"
        "# generic places such as OSH), never an institution even after \"to\".\n")
    inventory, icu = built
    return header + "[INVENTORY]\n" + "\n".join(inventory) + "\n[ICU]\n" + "\n".join(icu) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    built = render(build(shared_data_dir() / "clinical_abbreviations"))
    target = resource(*SHORTHAND_FILE)
    if args.check:
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != built:
            print(f"{target.name} is stale: rerun python -m engine.resolution.build_shorthand")
            return 1
        return 0
    tmp = target.with_suffix(".tmp")
    tmp.write_text(built, encoding="utf-8")
    tmp.replace(target)
    print(f"wrote {len(entries(built)) - 2} entries to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
