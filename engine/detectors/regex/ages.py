"""Ages. Every age is proposed; the policy decides which are PHI (HIPAA: over 89)."""

from __future__ import annotations

from engine.core.labels import Label
from engine.detectors.regex.rule import RegexRule

A = Label.AGE
_N = r"(\d{1,3}(?:\.\d)?)"
_YO = (r"(?:[\s\-]*(?:years?|yrs?|y)[\s\-]*(?:old|of\s+age)\b"
       r"|[\s\-]*(?:yo|y/o|y\.o\.?|yoa)(?![\w/])"
       r"|[\s\-]*(?:year|yr)[\s\-]+old\b)")

AGE_RULES: tuple[RegexRule, ...] = (
    RegexRule("age.year_old", A, r"(?i:(?<![\w.])" + _N + rf"{_YO})", 0.95, group=1),
    RegexRule("age.cued", A,
              r"(?i:\b(?:aged?|age\s+of|age\s*:|at\s+age|ages)\s*:?\s*(\d{1,3})(?![\d.:/]))",
              0.9, group=1),
    RegexRule("age.turned", A,
              r"(?i:\b(?:turned|turning|turns|is\s+now)\s+(\d{1,3})(?![\d.:/%])(?!\s*(?:mg|ml|"
              r"times|days|weeks|months|percent|minutes|hours|am|pm)))", 0.6, group=1),
    RegexRule("age.months_old", A,
              r"(?i:(?<![\w.])(\d{1,2})[\s\-]*(?:months?|mos?|weeks?|wks?|days?)[\s\-]*old\b)",
              0.85, group=1),
    # Spanish case reports: "Paciente varón de 54 años", "mujer ecuatoriana de 41 años",
    # "70 años de edad", "Edad: 62 años"; not a duration ("de 3 años de evolución").
    RegexRule("age.anos_person", A,
              r"(?i:\b(?:paciente|var[oó]n|mujer|hombre|niñ[oa]|lactante|joven|ancian[oa]"
              r"|señora?|chic[oa]|adolescente|gestante|hij[oa]|herman[oa]|madre|padre)"
              r"(?:[ \t]+[^\W\d_]+){0,3}?[ \t]+de[ \t]+(\d{1,3}[ \t]+(?:años|meses))\b"
              r"(?![ \t]+de[ \t]+(?:evoluci[oó]n|seguimiento|duraci[oó]n|tratamiento)))",
              0.85, group=1),
    RegexRule("age.anos_de_edad", A,
              r"(?i:(?<![\w.])(\d{1,3}[ \t]+(?:años|meses))[ \t]+de[ \t]+edad\b)", 0.9, group=1),
    RegexRule("age.edad", A,
              r"(?i:\bedad[ \t]*(?::|de)[ \t]*(\d{1,3}(?:[ \t]+(?:años|meses)\b)?)(?![\d.:/]))",
              0.9, group=1),
    # "PT IS 91, DNR", "pt is 26. works at": the patient's age said alone, closed by a comma or
    # a period (not "pt is 2L NC", "pt is 100%").
    RegexRule("age.patient_is", A,
              r"(?i:\b(?:pt|patient|he|she)[ \t]+is[ \t]+(?:now[ \t]+)?(\d{1,3}))(?=[ \t]*[,;]"
              r"|\.(?:\s|$)|[ \t]+(?:and|but|w/|with)\b)", 0.6, group=1),
    # "67M", "45 F", "82 yo M" (triage shorthand) only before a clear sex token at a boundary.
    RegexRule("age.sex_shorthand", A,
              r"(?<![\w.:/])(\d{1,3})\s?(?:M|F)(?=\s+(?:with|w/|presents|presenting|pt|c/o|who|"
              r"patient|hx|h/o)\b)", 0.7, group=1),
)
