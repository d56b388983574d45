"""Emails, URLs and IP addresses: plausible fakes with the same structure."""

from __future__ import annotations

import ipaddress
import random
import re

from engine.surrogates.fake import SeededFaker
from engine.surrogates.identifiers import shape_replace
from engine.surrogates.names import Components, Kind, NameData

EMAIL_RE = re.compile(r"^(?P<local>[^@\s]+)@(?P<domain>[^@\s]+\.[A-Za-z]{2,})$")
URL_RE = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)?(?P<www>www\d?\.)?"
                    r"(?P<host>[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})"
                    r"(?P<port>:\d+)?(?P<rest>[/?#].*)?$", re.DOTALL)
# Mail providers shared by millions: keeping them reveals nothing and reads naturally.
_PUBLIC_MAIL = {"gmail.com", "yahoo.com", "yahoo.ca", "hotmail.com", "hotmail.ca",
                "outlook.com", "live.com", "msn.com", "icloud.com", "me.com", "aol.com",
                "protonmail.com", "proton.me", "rogers.com", "shaw.ca", "sympatico.ca",
                "bell.net", "telus.net", "comcast.net", "videotron.ca"}
_SECOND_LEVEL = {"co", "com", "org", "net", "gov", "ac", "edu", "gc", "on", "qc", "bc", "ab",
                 "mb", "sk", "ns", "nb", "nl", "pe"}


def _case_like(new: str, like: str) -> str:
    return new.upper() if like.isupper() else new.lower() if like.islower() else new


def _host(host: str, faker: SeededFaker, rng: random.Random) -> str:
    labels = host.split(".")
    keep = 1
    while keep < len(labels) - 1 and labels[-keep - 1].lower() in _SECOND_LEVEL:
        keep += 1  # "co.uk", "on.ca", "gc.ca": keep the public suffix
    new = [_case_like(faker.draw(rng.getrandbits(64), lambda f: f.domain_word()), label)
           for label in labels[:-keep]]
    return ".".join(new + labels[-keep:])


def _words(text: str, faker: SeededFaker, rng: random.Random) -> str:
    """Replace each letter run with a fake word and each digit with a digit."""
    def word(m: re.Match[str]) -> str:
        w = faker.draw(rng.getrandbits(64), lambda f: f.word())
        return _case_like(w, m.group())

    text = re.sub(r"\d", lambda m: rng.choice("0123456789"), text)
    return re.sub(r"[A-Za-z]+", word, text)


def email(value: str, names: NameData, faker: SeededFaker, rng: random.Random,
          known: Components | None = None) -> str:
    m = EMAIL_RE.match(value)
    if not m:
        return shape_replace(value, rng)
    local, domain = m.group("local"), m.group("domain")
    runs = re.split(r"([._+-]+)", local)
    out, alpha_seen = [], 0
    for run in runs:
        if not run or re.fullmatch(r"[._+-]+", run):
            out.append(run)
        elif run.isalpha():
            # "john.smith" -> "mark.lee": first alpha run a first name, later ones surnames.
            kind: Kind = "first" if alpha_seen == 0 else "last"
            key = run.casefold()
            other: Kind = "last" if kind == "first" else "first"
            if len(run) == 1:
                new = rng.choice("abcdefghijklmnopqrstuvwxyz")
            elif known is not None and known.known(kind, key):
                # "john.smith@" for a patient John Smith reads as the surrogate's name.
                new = known.component(kind, key, None)
            elif known is not None and known.known(other, key):
                new = known.component(other, key, None)
            else:
                new = names.pick(kind, None, rng)
            out.append(_case_like(new, run) if not run.islower() else new.lower())
            alpha_seen += 1
        else:
            out.append(shape_replace(run, rng).lower() if run.islower() else
                       shape_replace(run, rng))
    new_domain = domain if domain.lower() in _PUBLIC_MAIL else _host(domain, faker, rng)
    return "".join(out) + "@" + new_domain


def url(value: str, faker: SeededFaker, rng: random.Random) -> str:
    m = URL_RE.match(value)
    if not m:
        return shape_replace(value, rng)
    rest = m.group("rest") or ""
    return ((m.group("scheme") or "") + (m.group("www") or "") + _host(m.group("host"), faker, rng)
            + (m.group("port") or "") + (_words(rest, faker, rng) if rest else ""))


def ip(value: str, rng: random.Random) -> str | None:
    try:
        addr = ipaddress.ip_address(value)
    except ValueError:
        return None
    if isinstance(addr, ipaddress.IPv4Address):
        octets = value.split(".")
        if addr.is_private:
            # Stay in the same private block: 10.x, 172.16-31.x, 192.168.x.
            keep = 1 if octets[0] == "10" else 2
            new = octets[:keep] + [str(rng.randint(1, 254)) for _ in octets[keep:]]
        else:
            new = [str(rng.choice([a for a in range(11, 224) if a not in (127, 169, 172, 192)]))]
            new += [str(rng.randint(0, 255)) for _ in range(2)] + [str(rng.randint(1, 254))]
        return ".".join(new)
    return "".join(rng.choice("0123456789abcdef") if ch.isalnum() else ch for ch in value) \
        if value.islower() or not any(c.isalpha() for c in value) else \
        "".join(rng.choice("0123456789ABCDEF") if ch.isalnum() else ch for ch in value)


def web(value: str, subtype: str | None, names: NameData, faker: SeededFaker,
        rng: random.Random, known: Components | None = None) -> str:
    stripped = value.strip()
    lead, trail = value[:len(value) - len(value.lstrip())], value[len(value.rstrip()):]
    if subtype == "EMAIL" or (subtype is None and EMAIL_RE.match(stripped)):
        core = email(stripped, names, faker, rng, known)
    elif subtype == "IP" or (subtype is None and ip(stripped, random.Random(0)) is not None):
        core = ip(stripped, rng) or shape_replace(stripped, rng)
    else:
        core = url(stripped, faker, rng)
    return lead + core + trail
