"""Countries, states, provinces and the world's regions: places no smaller than a state, which
HIPAA Safe Harbor leaves in the text. Read from the shipped location table's first three
sections (the detectors read the same file for towns; a policy must not import a detector),
with continents and regions of several countries added here."""

from __future__ import annotations

import re
from functools import lru_cache

from engine.paths import resource

_KEPT_SECTIONS = frozenset({"COUNTRY", "STATE", "PROVINCE"})
# A state that names a great city ("moved from New York") and a region that is a first name
# (a model's LOCATION there may be a person it mislabelled: "Jordan", "Georgia") stay PHI.
_STILL_PHI = frozenset({"new york", "washington", "quebec", "québec", "district of columbia",
                        "georgia", "jordan", "virginia", "oman", "montserrat", "chad",
                        "india"})
# Continents and the regions of the world made of several countries ("a relief trip in West
# Africa", "born in Central America"): larger than any state.
_CONTINENTS = frozenset({"africa", "asia", "europe", "north america", "south america",
                         "latin america", "central america", "antarctica", "oceania",
                         "west africa", "east africa", "southern africa", "north africa",
                         "southeast asia", "se asia", "east asia", "south asia", "central asia",
                         "middle east", "the caribbean", "caribbean", "scandinavia",
                         "eastern europe", "western europe", "the balkans", "balkans",
                         "polynesia", "micronesia", "melanesia", "sub-saharan africa"})
# The postal abbreviations of the US states (and DC) and of Canada's provinces and territories.
US_STATE_CODES = frozenset(
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ"
    " NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC".split())
CA_PROVINCE_CODES = frozenset("AB BC MB NB NL NS NT NU ON PE QC SK YT".split())
# Such an abbreviation is the state ("home to prestonsburg ky", "Family from WV"); not "NY"
# (the city as often), "VA" (Veterans Affairs, a hospital) or "DC" (a city).
STATE_ABBREVIATIONS = frozenset(
    c.casefold() for c in US_STATE_CODES | CA_PROVINCE_CODES if c not in ("NY", "VA", "DC"))
_SECTION = re.compile(r"^\[([A-Z]+)\]$")
# A part of a region is no smaller a place for it: "from southern Mexico", "rural Alberta".
_PART_OF = re.compile(r"(?:(?:north|south|east|west)(?:ern)?|central|rural|upstate|downstate"
                      r"|northeast(?:ern)?|northwest(?:ern)?|southeast(?:ern)?|southwest(?:ern)?)"
                      r" ")


@lru_cache(maxsize=1)
def broad_regions() -> frozenset[str]:
    """Casefolded names, words joined by one space."""
    kept: set[str] = set()
    section = None
    table = resource("dictionaries", "locations.txt").read_text(encoding="utf-8")
    for line in table.splitlines():
        line = line.strip()
        heading = _SECTION.match(line)
        if heading:
            section = heading.group(1)
        elif line and not line.startswith("#") and section in _KEPT_SECTIONS:
            kept.add(" ".join(line.casefold().split()))
    return frozenset((kept | _CONTINENTS) - _STILL_PHI)


def broad_region(covered: str) -> bool:
    """Is ``covered`` ("Vietnam", "TEXAS", "Nova Scotia.", "KY", "wv") a country, state or
    province? An abbreviation counts in capitals or lower case, not as "Mt" (Mount)."""
    key = " ".join(covered.casefold().strip(" .,").split())
    if re.fullmatch(r"[a-z]\.[a-z]", key) and key not in ("m.d", "p.a", "d.o"):
        key = key.replace(".", "")  # "Mexicali, B.C.", "Halifax, N.S."; not a credential
    if key in STATE_ABBREVIATIONS:
        bare = covered.strip(" .,")
        return bare.isupper() or bare.islower()
    return key in broad_regions() or _PART_OF.sub("", key, count=1) in broad_regions() \
        and bool(_PART_OF.match(key))
