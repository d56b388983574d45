"""The closed label vocabulary, its subtypes, and mappings to other schemas."""

from __future__ import annotations

from enum import StrEnum


class Label(StrEnum):
    PATIENT = "PATIENT"
    DOCTOR = "DOCTOR"  # any care provider or staff member
    PERSON = "PERSON"  # relatives and other people
    AGE = "AGE"
    DATE = "DATE"
    ID = "ID"
    PHONE = "PHONE"
    WEB = "WEB"
    LOCATION = "LOCATION"
    HOSPITAL = "HOSPITAL"  # facilities, clinics, pharmacies, organisations
    OTHER = "OTHER"


NAME_LABELS: frozenset[Label] = frozenset({Label.PATIENT, Label.DOCTOR, Label.PERSON})

SUBTYPES: dict[Label, frozenset[str]] = {
    Label.ID: frozenset(
        {"MRN", "SSN", "SIN", "PHN", "HCN", "ULI", "INSURANCE", "ACCOUNT", "LICENSE",
         "DEVICE", "ACCESSION", "CREDIT_CARD", "IBAN"}
    ),
    Label.PHONE: frozenset({"PHONE", "FAX", "PAGER"}),
    Label.WEB: frozenset({"EMAIL", "URL", "IP"}),
    Label.LOCATION: frozenset({"STREET", "CITY", "PROVINCE", "STATE", "POSTAL_CODE", "ZIP",
                               "COUNTRY", "ADDRESS"}),
    Label.DATE: frozenset({"DATE", "DOB", "TIME"}),
    # Sex in a demographic field or description ("Sexo: H", "varón de 54 años"): a
    # quasi-identifier that only the strict policy removes (MEDDOCAN's SEXO).
    Label.OTHER: frozenset({"SEX"}),
}


def check_subtype(label: Label, subtype: str | None) -> None:
    """Raise ValueError if ``subtype`` is not in the vocabulary for ``label``."""
    if subtype is None:
        return
    allowed = SUBTYPES.get(label, frozenset())
    if subtype not in allowed:
        raise ValueError(f"subtype {subtype!r} is not defined for label {label.value}")


# i2b2 2014 de-identification categories -> ClearNote labels.
I2B2_2014: dict[str, Label] = {
    "PATIENT": Label.PATIENT, "DOCTOR": Label.DOCTOR, "USERNAME": Label.OTHER,
    "PROFESSION": Label.OTHER, "ROOM": Label.LOCATION, "DEPARTMENT": Label.HOSPITAL,
    "HOSPITAL": Label.HOSPITAL, "ORGANIZATION": Label.HOSPITAL, "STREET": Label.LOCATION,
    "CITY": Label.LOCATION, "STATE": Label.LOCATION, "COUNTRY": Label.LOCATION,
    "ZIP": Label.LOCATION, "LOCATION-OTHER": Label.LOCATION, "AGE": Label.AGE,
    "DATE": Label.DATE, "PHONE": Label.PHONE, "FAX": Label.PHONE, "EMAIL": Label.WEB,
    "URL": Label.WEB, "IPADDR": Label.WEB, "SSN": Label.ID, "MEDICALRECORD": Label.ID,
    "HEALTHPLAN": Label.ID, "ACCOUNT": Label.ID, "LICENSE": Label.ID, "VEHICLE": Label.ID,
    "DEVICE": Label.ID, "BIOID": Label.ID, "IDNUM": Label.ID,
}

# SHIELD's nine categories (Posada et al.) -> ClearNote labels.
SHIELD: dict[str, Label] = {
    "PATIENT": Label.PATIENT, "PROVIDER": Label.DOCTOR, "PERSON": Label.PERSON,
    "AGE": Label.AGE, "DATE": Label.DATE, "ID": Label.ID, "PHONE": Label.PHONE,
    "EMAIL": Label.WEB, "LOCATION": Label.LOCATION, "FACILITY": Label.HOSPITAL,
}

# Presidio research labels -> ClearNote labels (None: not PHI under any ClearNote policy).
PRESIDIO: dict[str, Label | None] = {
    "PERSON": Label.PERSON, "STREET_ADDRESS": Label.LOCATION, "GPE": Label.LOCATION,
    "ORGANIZATION": Label.HOSPITAL, "CREDIT_CARD": Label.ID, "DATE_TIME": Label.DATE,
    "TITLE": None, "PHONE_NUMBER": Label.PHONE, "AGE": Label.AGE, "NRP": None,
    "EMAIL_ADDRESS": Label.WEB, "ZIP_CODE": Label.LOCATION, "DOMAIN_NAME": Label.WEB,
    "IBAN_CODE": Label.ID, "US_SSN": Label.ID, "IP_ADDRESS": Label.WEB,
    "US_DRIVER_LICENSE": Label.ID,
}

# The gold labels used in ../shared/data (ACI-Bench name annotations, MEDDOCAN).
ACI_BENCH: dict[str, Label] = {
    "PATIENT_FIRSTNAME": Label.PATIENT, "PATIENT_FAMILYNAME": Label.PATIENT,
    "DOCTOR_FIRSTNAME": Label.DOCTOR, "DOCTOR_FAMILYNAME": Label.DOCTOR,
}

MEDDOCAN: dict[str, Label] = {
    "NOMBRE_SUJETO_ASISTENCIA": Label.PATIENT, "NOMBRE_PERSONAL_SANITARIO": Label.DOCTOR,
    "FAMILIARES_SUJETO_ASISTENCIA": Label.PERSON, "EDAD_SUJETO_ASISTENCIA": Label.AGE,
    "FECHAS": Label.DATE, "ID_SUJETO_ASISTENCIA": Label.ID, "ID_ASEGURAMIENTO": Label.ID,
    "ID_CONTACTO_ASISTENCIAL": Label.ID, "ID_TITULACION_PERSONAL_SANITARIO": Label.ID,
    "ID_EMPLEO_PERSONAL_SANITARIO": Label.ID, "NUMERO_TELEFONO": Label.PHONE,
    "NUMERO_FAX": Label.PHONE, "CORREO_ELECTRONICO": Label.WEB, "CALLE": Label.LOCATION,
    "TERRITORIO": Label.LOCATION, "PAIS": Label.LOCATION, "HOSPITAL": Label.HOSPITAL,
    "INSTITUCION": Label.HOSPITAL, "CENTRO_SALUD": Label.HOSPITAL,
    "SEXO_SUJETO_ASISTENCIA": Label.OTHER, "PROFESION": Label.OTHER,
    "OTROS_SUJETO_ASISTENCIA": Label.OTHER,
}

SCHEMAS: dict[str, dict[str, Label] | dict[str, Label | None]] = {
    "clearnote": {label.value: label for label in Label},
    "i2b2": I2B2_2014,
    "shield": SHIELD,
    "presidio": PRESIDIO,
    "aci": ACI_BENCH,
    "meddocan": MEDDOCAN,
}


def map_label(raw: str) -> Label | None:
    """Map a label from any known schema to ClearNote's vocabulary (None: not PHI)."""
    if raw in Label.__members__:
        return Label(raw)
    for schema in (I2B2_2014, SHIELD, ACI_BENCH, MEDDOCAN, PRESIDIO):
        if raw in schema:
            return schema[raw]
    raise ValueError(f"unknown label {raw!r}")


# HIPAA Safe Harbor identifier categories each label falls under (for reports).
HIPAA_SAFE_HARBOR: dict[Label, str] = {
    Label.PATIENT: "(A) names", Label.PERSON: "(A) names", Label.DOCTOR: "(A) names",
    Label.LOCATION: "(B) geographic subdivisions smaller than a state",
    Label.DATE: "(C) dates (except year)", Label.AGE: "(C) ages over 89",
    Label.PHONE: "(D,E) telephone and fax numbers", Label.WEB: "(F,N,O) email, URL, IP",
    Label.ID: "(G-M,R) record, plan, account, licence, device and other numbers",
    Label.HOSPITAL: "(B) geographic / institutional identifiers",
    Label.OTHER: "(R) any other unique identifying characteristic",
}

# Colours of labels wherever a span is drawn (the desktop, the review PDF): Okabe–Ito
# derived, muted, distinguishable for common colour-vision deficiencies. Colour is never
# the only signal: every drawn span also names its label.
LABEL_COLOURS: dict[Label, str] = {
    Label.PATIENT: "#E69F00",
    Label.DOCTOR: "#56B4E9",
    Label.PERSON: "#CC79A7",
    Label.AGE: "#999933",
    Label.DATE: "#009E73",
    Label.ID: "#D55E00",
    Label.PHONE: "#0072B2",
    Label.WEB: "#882255",
    Label.LOCATION: "#44AA99",
    Label.HOSPITAL: "#8877BB",
    Label.OTHER: "#888888",
}
