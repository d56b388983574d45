"""The patient's sex where a record states it: a demographic field ("Sexo: H", "Sex: F",
"Gender: female") or a Spanish case description ("varón de 54 años", "Mujer ecuatoriana de 41
años"). Proposed as OTHER/SEX; only the strict policy removes it (``Policy.keep_sex``)."""

from __future__ import annotations

from engine.core.labels import Label
from engine.detectors.regex.rule import RegexRule

OTHER = Label.OTHER
_VALUE = r"(?:h|m|f|v|hombre|mujer|var[oó]n|femenino|masculino|female|male|man|woman)"

SEX_RULES: tuple[RegexRule, ...] = (
    RegexRule("sex.field", OTHER,
              rf"(?i:\b(?:sexo|sex|gender|g[ée]nero)[ \t]*[:=][ \t]*({_VALUE})\b)", 0.9,
              subtype="SEX", group=1),
    RegexRule("sex.described", OTHER,
              r"(?i:\b(var[oó]n|mujer|hombre|niñ[oa])"
              r"(?=(?:[ \t]+[^\W\d_]+){0,3}?[ \t]+de[ \t]+\d{1,3}[ \t]+(?:años|meses)\b))",
              0.8, subtype="SEX", group=1),
)
