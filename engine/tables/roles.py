"""Column roles: what a column of an extract means, inferred from its header (English,
French, Spanish, German) and, where the header says nothing, from sampled values through
the detectors' validators. A person confirms or edits them (``schema``) before a run."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from enum import StrEnum

from engine.detectors.regex.validators import numeric_date, ssn


class Role(StrEnum):
    PATIENT_KEY = "patient-key"  # links the rows of one patient (and is an identifier)
    NAME = "name"
    IDENTIFIER = "identifier"
    DATE = "date"
    DOB = "date-of-birth"
    AGE = "age"
    ZIP = "zip"
    PHONE = "phone"
    EMAIL = "email"
    ADDRESS = "address"
    FREE_TEXT = "free-text"
    KEEP = "keep"  # clinical: written back byte for byte
    DROP = "drop"  # emptied in the output (the column itself stays)


ROLE_HELP = {
    Role.PATIENT_KEY: "links the rows of one patient; replaced like an identifier",
    Role.NAME: "names: surrogates consistent per patient",
    Role.IDENTIFIER: "format-preserving surrogate, the same for the same value",
    Role.DATE: "shifted by the patient's shift (intervals kept)",
    Role.DOB: "shifted by the patient's shift (ages at each visit kept)",
    Role.AGE: "over 89 becomes 90+",
    Role.ZIP: "first three digits (000 for the restricted prefixes)",
    Role.PHONE: "surrogate phone number",
    Role.EMAIL: "surrogate address",
    Role.ADDRESS: "surrogate street or place",
    Role.FREE_TEXT: "the full pipeline, with the row's identifiers as known identifiers",
    Role.KEEP: "written back byte for byte",
    Role.DROP: "emptied",
}

# Header words, casefolded and without accents. A header matches a role when one of its
# phrases is the whole header or a run of its words ("visit_date" -> "visit date").
_HEADERS: tuple[tuple[Role, tuple[str, ...]], ...] = (
    (Role.DOB, ("dob", "date of birth", "birth date", "birthdate", "birthday", "born",
                "date de naissance", "ddn", "ne le", "fecha de nacimiento", "fecha nacimiento",
                "f nacimiento", "geburtsdatum", "geb datum", "geboren")),
    (Role.PATIENT_KEY, ("mrn", "medical record number", "medical record", "record number",
                        "patient id", "patientid", "patient number", "patient no", "pid",
                        "chart number", "numero de dossier", "no dossier", "dossier",
                        "ipp", "id patient", "numero patient", "historia clinica", "nhc",
                        "numero de historia", "id paciente", "patientennummer",
                        "patienten id", "patientenid")),
    (Role.AGE, ("age", "age years", "edad", "alter")),
    (Role.ZIP, ("zip", "zipcode", "zip code", "postal code", "postcode", "post code",
                "code postal", "cp", "codigo postal", "plz", "postleitzahl")),
    (Role.PHONE, ("phone", "telephone", "tel", "phone number", "mobile", "cell", "fax",
                  "telefono", "movil", "telefon", "handy", "portable", "mobil")),
    (Role.EMAIL, ("email", "e mail", "mail", "courriel", "adresse electronique", "correo",
                  "correo electronico")),
    (Role.ADDRESS, ("address", "street", "street address", "city", "town", "adresse", "rue",
                    "ville", "direccion", "calle", "domicilio", "ciudad", "strasse",
                    "anschrift", "wohnort", "ort", "stadt")),
    (Role.NAME, ("name", "patient name", "full name", "first name", "firstname",
                 "given name", "last name", "lastname", "surname", "family name",
                 "middle name", "nom", "prenom", "nom de famille", "nom patient", "nombre",
                 "apellido", "apellidos", "nombre completo", "vorname", "nachname",
                 "familienname", "patientenname")),
    (Role.IDENTIFIER, ("ssn", "social security number", "sin", "nhs number", "insurance",
                       "insurance number", "policy number", "member id", "account",
                       "account number", "license", "licence", "health card", "hcn", "phn",
                       "uli", "nir", "numero de securite sociale", "secu", "nss",
                       "numero de seguridad social", "dni", "nie", "tarjeta sanitaria",
                       "versicherungsnummer", "krankenversicherungsnummer",
                       "sozialversicherungsnummer", "fallnummer", "encounter id",
                       "visit id", "accession", "accession number", "device id")),
    (Role.DATE, ("date", "visit date", "admission date", "discharge date", "admitted",
                 "discharged", "encounter date", "service date", "date of service",
                 "date de visite", "date d admission", "date de sortie", "fecha",
                 "fecha de visita", "fecha de ingreso", "fecha de alta", "datum",
                 "aufnahmedatum", "entlassdatum", "besuchsdatum", "untersuchungsdatum")),
    (Role.FREE_TEXT, ("note", "notes", "comment", "comments", "text", "narrative", "remarks",
                      "observation", "observations", "summary", "clinical note",
                      "progress note", "commentaire", "commentaires", "compte rendu",
                      "observations cliniques", "nota", "notas", "texto", "comentario",
                      "comentarios", "bemerkung", "bemerkungen", "notiz", "befund",
                      "anamnese", "verlauf")),
)

_WORD = re.compile(r"[a-z0-9]+")
_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(\.[\w-]+)+$")
_PHONE = re.compile(r"^\+?[\d(][\d\s().-]{7,}\d$")
_POSTAL_CA = re.compile(r"^[A-Za-z]\d[A-Za-z][ -]?\d[A-Za-z]\d$")
_ISO_DATE = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2})?)?$")
SAMPLE_ROWS = 200
_AGREE = 0.8  # share of sampled values that must agree


def words(header: str) -> str:
    plain = unicodedata.normalize("NFKD", header).encode("ascii", "ignore").decode()
    return " ".join(_WORD.findall(plain.casefold()))


def role_from_header(header: str) -> Role | None:
    text = words(header)
    padded = f" {text} "
    for role, phrases in _HEADERS:  # whole header first, for every role
        if text in phrases:
            return role
    for role, phrases in _HEADERS:  # then a distinctive phrase inside it ("visit date
        # (local)"); a lone generic word inside ("test name", "lab date") is no evidence
        if any((" " in p or len(p) >= 6) and f" {p} " in padded for p in phrases):
            return role
    return None


def role_from_values(values: Sequence[str]) -> Role | None:
    sample = [v.strip() for v in values if v.strip()]
    if not sample:
        return None

    def share(test: object) -> float:
        return sum(bool(test(v)) for v in sample) / len(sample)  # type: ignore[operator]

    if share(_EMAIL.match) >= _AGREE:
        return Role.EMAIL
    if share(lambda v: _ISO_DATE.match(v) or numeric_date(v)) >= _AGREE:
        return Role.DATE
    if share(ssn) >= _AGREE or share(_POSTAL_CA.match) >= _AGREE:
        return Role.IDENTIFIER if share(ssn) >= _AGREE else Role.ZIP
    if share(_PHONE.match) >= _AGREE and share(lambda v: not v.isdigit()) >= _AGREE:
        return Role.PHONE
    if share(lambda v: len(v) >= 40 and v.count(" ") >= 5) >= 0.5:
        return Role.FREE_TEXT
    return None


def infer_roles(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[Role]:
    """A role for every column: the header's, else the values', else keep. The first
    patient-key column links rows; later ones are identifiers."""
    roles = []
    for index, name in enumerate(header):
        role = role_from_header(name) or role_from_values(
            [row[index] for row in rows if index < len(row)]) or Role.KEEP
        if role is Role.PATIENT_KEY and Role.PATIENT_KEY in roles:
            role = Role.IDENTIFIER
        roles.append(role)
    return roles
