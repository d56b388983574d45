"""Clinical allowlist: recover candidates that are clinical vocabulary, not PHI.

Three sources, all offline: curated lists in ``resources/allowlist/`` (eponyms, scores,
named tests, drug names, payers, faiths and languages), an eponym pattern ("<Name>['s]
disease|syndrome|sign|protocol|scale..."), and genetic-variant notation (HGVS g./c./p.,
dbSNP rs ids).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.core.domain import Document, Span
from engine.core.labels import Label
from engine.detectors.dictionary.gazetteer import TOKEN, PhraseTable, tokenize
from engine.detectors.regex.fragments import UP
from engine.detectors.regex.towns import HOME_BEFORE
from engine.resolution.terms import read_terms

ALLOWLIST_FILES = ("eponyms.txt", "drugs.txt", "payers.txt", "faiths_and_languages.txt")
# Labels the allowlist may drop; dates, ages, phones and web addresses are never vocabulary.
RECOVERABLE: frozenset[Label] = frozenset({Label.PATIENT, Label.DOCTOR, Label.PERSON,
                                           Label.LOCATION, Label.HOSPITAL, Label.OTHER,
                                           Label.ID})
# Head nouns that make "<Name> X" a clinical eponym. Generic nouns that follow people's
# names ("Smith's exam", "Jane's number") are deliberately absent.
_HEAD_NOUNS = (r"disease|syndrome|sign|signs|test|protocol|scale|score|criteria|reflex|"
               r"maneuver|manoeuvre|procedure|operation|fracture|palsy|phenomenon|"
               r"classification|tumou?r|lymphoma|sarcoma|carcinoma|cell|cells|node|nodes|"
               r"ulcer|murmur|triad|pentad|incision|stain|fundoplication|shunt|anastomosis|"
               r"equation|formula|lesions?|spots?|nodules?|diverticulum|esophagus|"
               r"oesophagus|angina|neuroma|cyst|thyroiditis|encephalopathy|dystrophy|anomaly|"
               r"malformation|paralysis|ligament|canal|triangle|pouch|ataxia|chorea|dementia|"
               r"neuropathy|arteritis|vasculitis|hernia|contracture|deformity|bacillus|agar|histology|"
               r"decompression|gangrene")
# "Parkinson's disease", "Glasgow Coma Scale", "Bruce protocol", "Non-Hodgkin lymphoma". A head
# noun that labels a field is no eponym: "Lisa Blümel   Cell: (275) 480-8909", "Greg cell
# 472-555-0113".
_EPONYM = re.compile(
    rf"(?<![\w'])((?:[Nn]on-)?{UP}[\w\-]*(?:['’]s?)?(?:[ \t\-]+{UP}[\w\-]*(?:['’]s?)?){{0,2}})"
    rf"[ \t\-]+(?i:{_HEAD_NOUNS})\b(?![ \t]*(?:[:#]|-[ \t]*[\d(+])|(?<=[Cc]ell)[ \t]+\(?\d{{3}}"
    r"|[ \t]+(?i:board|conference|program)\b)")  # "KPCI Tumor Board" is the institution's
# "U Vermont scale": a scale named after a university is the institution's name.
_UNIVERSITY = re.compile(r"U\.?[ \t]|Univ\b")
# HGVS variants (g.7578395G>C, c.215C>G, p.Arg72Pro, c.5266dupC), dbSNP ids (rs1042522).
_VARIANT = re.compile(
    r"(?<![\w.])(?:(?:NM_|NC_|NG_|NP_|ENST)\d+(?:\.\d+)?:)?"
    r"(?:[gcmnrp]\.(?:\(?[A-Z][a-z]{2}\d+[A-Z][a-z]{2}\)?|[A-Z][a-z]{2}\d+(?:[A-Z][a-z]{2}|\*|fs\w*)|"
    r"[\d_+\-*]+(?:[ACGTacgu]+>[ACGTacgu]+|del[ACGT]*|dup[ACGT]*|ins[ACGT]+|inv|delins[ACGT]+))"
    r"|rs\d{3,})(?![\w>])")
# A gene and its protein change as charted ("jak2 v617f", "HFE C282Y", "BRAF V600E").
_GENE_VARIANT = re.compile(
    r"(?i:\b(?:jak2|calr|mpl|hfe|braf|kras|nras|egfr|idh[12]|flt3|npm1|tp53|pik3ca|kit|alk)"
    r"[ \t]+[ACDEFGHIKLMNPQRSTVWY]\d{1,4}[ACDEFGHIKLMNPQRSTVWY*]\b)")
# A laryngoscope's blade and its size ("grade 1 view w/ Mac 3", "MAC 4"): the tokens of the
# lists hold no digits, so the size is matched here.
_BLADE = re.compile(r"\b(?:Mac|MAC|mac)[ \t]*#?[1-5](?![\d.:/])")
# A hemorrhage's grade on the Fisher scale ("post bleed day 8 from fisher 4 sah").
_FISHER = re.compile(r"(?i:\b(?:modified[ \t]+)?fisher[ \t]+(?:grade[ \t]+|gr\.?[ \t]*)?"
                     r"[1-4](?![\d.:/])"
                     # and limb ischemia's class ("CLTI L LE, Rutherford 5")
                     r"|\brutherford[ \t]+(?:class(?:ification)?[ \t]+|category[ \t]+)?"
                     r"[0-6](?![\d.:/])"
                     # and hepatic encephalopathy's West Haven grade ("NOW WEST HAVEN 1",
                     # "west haven gr 1")
                     r"|\bwest[ \t]+haven[ \t]+(?:grade[ \t]+|gr\.?[ \t]*)?[0-4](?![\d.:/])"
                     # and the fall risk score ("bed alarm on, Morse 45")
                     r"|\bmorse[ \t]+(?:fall[ \t]+)?(?:scale[ \t]+|score[ \t]+)?(?::[ \t]*)?\d{1,3}"
                     r"(?![\d.:/])"
                     # and the stool's type ("large formed bm (bristol 4)"), not "Bristol 4 days"
                     r"|(?:(?<=\()|\b(?:bms?|stools?|bo|bno)\b[^\n]{0,24}?\b)bristol[ \t]+"
                     r"(?:type[ \t]+)?[1-7](?![\d:/]|\.\d))")
# Places and surnames that name a scale, a pay band, a collar or a society where they stand:
# "RASS (Richmond) -3", "bedside nurse (Band 6)", "C-collar (Aspen)", "Miami J collar", "per
# ASPEN/AND criteria", "Needs (ASPEN/SCCM obese critically ill)", "power 4.1 W. Doppler MAP"
# (watts, then the pressure's method), "Balance: Berg 38/56", the coma scale by its city, an
# organ's cancer.
_NAMED_THINGS = re.compile(
    r"(?i:\brass[ \t]*\([ \t]*richmond\b|\brichmond[ \t]*\([ \t]*rass\b"
    r"|\bband[ \t]+[2-9][a-d]?\b(?![.:/]\d)"
    r"|\bcollar[ \t]*\([ \t]*(?:aspen|miami[ \t\-]*j|philadelphia)\b"
    r"|\b(?:aspen|miami[ \t\-]*j|philadelphia)[ \t]+(?:c-?)?collar\b"
    r"|\baspen[ \t]*/[ \t]*(?:and|sccm)\b|\bsccm[ \t]*/[ \t]*aspen\b"
    # nutrition needs by the society's formula, ARDS graded by the Berlin definition ("Est
    # needs (ASPEN, BMI 30-50)", "ARDS, severe (Berlin)")
    r"|\(aspen(?=[ \t]*[,)])|\b(?:mild|moderate|mod|severe)[ \t]*\([ \t]*berlin\b"
    r"|\bards[ \t]*\([ \t]*berlin\b|\bards[ \t]+(?:per|by)[ \t]+berlin\b"
    # a perforated duodenal ulcer ("S/P PERF DU, GRAHAM PATCH")
    r"|\bperf(?:orated)?[ \t]+du\b"
    # a chest-compression device, a balloon tamponade tube's balloon ("MECHANICAL CPR (LUCAS)",
    # "Minnesota deflation by 24h mark"), a ring fracture of C1 ("C1 ring (Jefferson) fx")
    r"|\bcpr[ \t]*\([ \t]*lucas\b|\blucas[ \t]+(?:device|cpr|compressions?)\b"
    r"|\bminnesota[ \t]+(?:deflation|balloon|inflation|tube)\b"
    r"|\(jefferson\)[ \t]*(?:fx|fracture)\b"
    # MDMA by its street name after what was done with it ('took "molly,"', 'INGESTED "MOLLY" X2')
    r"|(?:(?<=took[ \t])|(?<=ingested[ \t])|(?<=taking[ \t])|(?<=using[ \t]))[\"“]molly\b"
    # a catheter's lumen by its colour ("am labs sent 0430 from hickman white lumen")
    r"|\b(?:(?:hickman|picc|tlc|cvc|quinton|trialysis|port)[ \t]+)?"
    r"(?:white|red|blue|brown|purple|distal|medial|proximal)[ \t]+lumen\b"
    r"|\bberlin[ \t]+(?:criteria|definition)\b"
    # a liver cancer within or beyond the transplant criteria, a mechanical valve by its maker
    # and size ("multifocal HCC (outside Milan)", "mechanical MV (St. Jude 27mm)")
    r"|\b(?:within|outside|beyond|exceeds?|meets?|met)[ \t]+milan\b"
    r"|\bst\.?[ \t]*jude[ \t]+(?:\d{2}[ \t]?mm|mechanical|regent|valve)\b"
    r"|\d[ \t]?w\.?[ \t]+doppler\b"
    r"|\bberg[ \t]+(?:balance[ \t]+)?(?:scale[ \t]+)?(?:score[ \t]+)?:?[ \t]*\d{1,2}(?:/56)?"
    r"(?![\d.:])"
    # the coma scale by its place alone ("squeezes bilat, glasgow 10t", "GLASGOW 3T"), the
    # sedation scale by its ("richmond 0, cam neg", "Richmond -2")
    r"|\bglasgow[ \t]+(?:of[ \t]+)?(?:1[0-5]|[3-9])(?:[ \t]?t)?\b(?![.:/]\d)"
    r"|\brichmond[ \t]+(?:\(?rass\)?[ \t]+)?(?:of[ \t]+)?(?:[+\-][ \t]?[1-5]|0)(?![\d:/]|\.\d)"
    # a low or high electrolyte or count ("DR AWARE OF LOW K / ICA", "DIET: RENAL, LOW K.")
    r"|\b(?:low|high)[ \t]+(?:k|mg|na|phos|ica|ca|plt|plts|hgb|uop|bp)\b(?![ \t]*\.[ \t]*[a-z])"
    # a saint's medal, statue or prayer card at the bedside ("rosary & saint anthony medal")
    r"|\b(?:saint|st\.?)[ \t]+[a-z]+(?:[ \t]+of[ \t]+[a-z]+)?[ \t]+(?:medals?|statues?"
    r"|prayers?|prayer[ \t]+cards?|novenas?|relics?|candles?|icons?)\b"
    r"|\b(?:medals?|statues?|icons?|pictures?|images?|prayer[ \t]+cards?)[ \t]+of[ \t]+"
    r"(?:the[ \t]+)?(?:saint|st\.?|our[ \t]+lady|virgin)[ \t]+[a-z]+\b"
    # the definition of ARDS by its city ("PEEP 14 (Berlin severe)", "BERLIN CRITERIA")
    r"|\bberlin[ \t]+(?:criteria|definition|severe|moderate|mild)\b"
    # a grading by its authors' names ("SAH, Hunt & Hess 3", "HUNT AND HESS GRADE 4")
    r"|\bhunt[ \t]*(?:&|and)[ \t]*hess\b"
    # an organ that is a surname too, with its cancer ("FH: FATHER LUNG CA", "brain mets")
    r"|\b(?:lung|colon|brain|bone|skin|liver|breast)[ \t]+(?:ca|cancer|carcinoma|mets"
    r"|metastases|masse?s?|nodules?|tumou?rs?)\b)")
# The staged heart operations named after surgeons, where the chart speaks of the operation:
# "s/p Glenn", "early Glenn", "post glenn", "Glenn pressures", "GLENN SCHEDULED", "Fontan
# circulation" (not "Dr. Glenn", "Glenn (father) called").
_PALLIATION = re.compile(
    r"(?i:\b(?:s/p|post|pre|early|stage[ \t]+[123]|bidirectional|bdg|completion|fenestrated"
    r"|extracardiac|for|support|before|after)[ \t\-]+(?:norwood|glenn|fontan|rastelli)\b"
    r"|\b(?:norwood|glenn|fontan|rastelli)(?:-\w+)?[ \t]+(?:shunt|pressures?|circulation"
    r"|procedure|physiology|pts?|patient|conduit|pathway|candidate|scheduled|pod|stage"
    r"|protection|takedown|failure|operation|repair|completion|course|incision|timing"
    r"|anatomy|recovery|surgery)\b"
    r"|\b(?:unobstructed|obstructed|patent|stenotic)[ \t]+(?:glenn|fontan)\b)")
# In a note about a single ventricle's staged repair, the stages' names are the operations
# wherever they stand ("unobstructed GLENN", "(Norwood + Glenn)", "brother's Glenn", "glenn
# incision"), unless a title goes before or a surname after ("Dr. Glenn", "Glenn Ashby").
_SINGLE_VENTRICLE = re.compile(r"(?i:\b(?:norwood|hlhs|hypoplastic[ \t]+left|single[ \t]+ventricle"
                               r"|sano|bdg|cavopulmonary|hemi-?fontan|bidirectional[ \t]+glenn)\b"
                               # "RSV/Glenn", "s/p glenn", "RSV W/ GLENN": the operation
                               r"|(?:/|\bw/[ \t]*|\bs/p[ \t]+)glenn\b)")
_STAGE = re.compile(r"(?i:\b(?:norwood|glenn|fontan)\b)(?![ \t]+[A-Z][a-z])")
# A score's grade that a candidate took with the score's name: "hunt-hess 3", "Fisher grade 2".
_GRADE_AFTER = re.compile(r"[ \t]+#?\d{1,2}\Z")
_TITLE_BEFORE = re.compile(r"(?i:\b(?:dr|mr|mrs|ms|miss|prof|doctor|rn|np|md)\.?\s*)$")


def _titled(text: str, start: int) -> bool:
    """A title just before ``start``: "Dr. Glenn", "Mr. Fisher" are people, not the term."""
    return bool(_TITLE_BEFORE.search(text[max(0, start - 12):start]))


def _normal(text: str) -> str:
    text = " ".join(text.casefold().replace("’", "'").split())
    return text[:-2] if text.endswith("'s") else text


@dataclass(frozen=True)
class ClinicalAllowlist:
    """Drops candidates whose text is, or lies inside, a clinical term."""

    terms: frozenset[str]  # normalised single- and multi-word terms

    @classmethod
    def default(cls) -> ClinicalAllowlist:
        return cls.from_terms(read_terms(ALLOWLIST_FILES))

    @classmethod
    def from_terms(cls, terms: Iterable[str]) -> ClinicalAllowlist:
        return cls(frozenset(_normal(t) for t in terms if t.strip()))

    @property
    def _table(self) -> PhraseTable:
        table = _TABLES.get(self.terms)
        if table is None:
            phrases = {}
            for term in self.terms:
                key = tuple(m.group().casefold().replace("’", "'")
                            for m in TOKEN.finditer(term))
                if key:
                    phrases[key] = term
            table = _TABLES[self.terms] = PhraseTable(phrases)
        return table

    def clinical_ranges(self, doc: Document) -> list[tuple[int, int]]:
        """Character ranges of clinical vocabulary in ``doc`` (multi-word terms, patterns)."""
        text = doc.text
        tokens = tokenize(text)
        ranges = [(tokens[a].start, tokens[b - 1].end)
                  # a size between the words: "Minnesota 4-lumen tube"
                  for a, b, _ in self._table.scan(text, tokens, allow=" \t-.0123456789")
                  # a piece of "Child-Pugh" or of "Yup'ik" too
                  if b - a > 1 or any(c in tokens[a].text for c in "-'’")]
        ranges += [m.span() for m in _EPONYM.finditer(text)
                   if not _titled(text, m.start()) and not _UNIVERSITY.match(m.group(1))]
        ranges += [m.span() for m in _VARIANT.finditer(text)]
        ranges += [m.span() for m in _GENE_VARIANT.finditer(text)]
        ranges += [m.span() for m in _BLADE.finditer(text)]
        ranges += [m.span() for m in _PALLIATION.finditer(text)]
        if _SINGLE_VENTRICLE.search(text):
            ranges += [m.span() for m in _STAGE.finditer(text) if not _titled(text, m.start())]
        ranges += [m.span() for m in _NAMED_THINGS.finditer(text)]
        ranges += [m.span() for m in _FISHER.finditer(text) if not _titled(text, m.start())]
        return ranges

    def is_clinical(self, doc: Document, span: Span,
                    ranges: list[tuple[int, int]] | None = None) -> bool:
        if span.label not in RECOVERABLE:
            return False
        if ranges is None:
            ranges = self.clinical_ranges(doc)
        covered = _GRADE_AFTER.sub("", doc.slice(span))  # "Hunt-Hess 3": the score's name
        if any(a <= span.start and span.start + len(covered) <= b for a, b in ranges):
            return True
        apostrophe = doc.text[span.end:span.end + 1]
        if _normal(covered) in self.terms or apostrophe in ("'", "’") \
                and _normal(covered + "'") in self.terms:  # "untreated Graves' precipitated"
            before = doc.text[max(0, span.start - 40):span.start]
            # "Mr. Foley" is a person even though "Foley" is also a catheter, and "lives in
            # addison" a town though "Addison's" is a disease.
            return not (_TITLE_BEFORE.search(before[-12:]) or span.label is Label.LOCATION
                        and HOME_BEFORE.search(before))
        return False

    def recover(self, doc: Document, spans: list[Span]) -> tuple[list[Span], list[Span]]:
        """Split candidates into (kept, dropped as clinical vocabulary)."""
        if not spans:
            return [], []
        ranges = self.clinical_ranges(doc)
        kept: list[Span] = []
        dropped: list[Span] = []
        for span in spans:
            (dropped if self.is_clinical(doc, span, ranges) else kept).append(span)
        return kept, dropped


_TABLES: dict[frozenset[str], PhraseTable] = {}
