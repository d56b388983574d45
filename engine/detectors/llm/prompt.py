"""The extraction prompt and its bounded JSON schema, both shaped by the active policy."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.core.labels import Label
from engine.core.policies import Policy
from engine.paths import resource

# Adapted from the SHIELD entity definitions (Posada et al., appendix D), in our vocabulary.
DEFINITIONS: dict[Label, str] = {
    Label.PATIENT: "the patient's name (first, last or full), not titles such as Mr./Ms.",
    Label.PERSON: "any other person who is not a care provider: relatives, friends, "
                  "guardians (not generic words such as 'sister')",
    Label.DOCTOR: "names of care providers and staff (doctors, nurses, therapists); "
                  "'Dr. Smith' -> 'Smith'",
    Label.AGE: "an age with its unit ('72 year old', '14 yo')",
    Label.DATE: "any date in any format ('03/14/2021', 'March 3', '2021-03-14'); "
                "not times, weekdays or words like 'yesterday'",
    Label.ID: "record and identity numbers: MRN, health card, PHN, SSN, account, "
              "licence, device serials (the number only, not the word 'MRN')",
    Label.PHONE: "phone, fax and pager numbers",
    Label.WEB: "emails, URLs, IP addresses, social media handles",
    Label.LOCATION: "addresses or parts of them: street, city, province/state, postal code",
    Label.HOSPITAL: "names of hospitals, clinics, pharmacies and other organisations "
                    "(not generic units such as ICU)",
    Label.OTHER: "any other unique identifying characteristic (e.g. a rare job title "
                 "with an employer)",
}

# Worked example output per label (the example text is in the prompt file).
_EXAMPLE: list[tuple[Label, str]] = [
    (Label.PATIENT, "Mary Olsen"), (Label.ID, "448-2913"), (Label.DOCTOR, "Ahmed Khan"),
    (Label.HOSPITAL, "Lakeside Clinic"), (Label.DATE, "03/14/2021"),
    (Label.PHONE, "780-555-0142"),
]


@dataclass(frozen=True)
class SchemaBounds:
    """Tiny models loop forever under an unbounded schema; these bounds stop that."""

    max_items: int = 12
    max_length: int = 48

    @property
    def max_tokens(self) -> int:
        # Every character could be a token; 40 covers the keys, label and punctuation.
        return 16 + self.max_items * (self.max_length + 40)


def requested_labels(policy: Policy) -> tuple[Label, ...]:
    """Labels to ask the model for: the policy's PHI, minus those the policy always keeps."""
    labels = [label for label in Label if label in policy.phi_labels]
    return tuple(labels)


def policy_rules(policy: Policy) -> list[str]:
    rules: list[str] = []
    if Label.DOCTOR not in policy.phi_labels:
        rules.append("- Do not tag care providers' names: this project keeps them.")
    if Label.HOSPITAL not in policy.phi_labels:
        rules.append("- Do not tag hospital, clinic or organisation names.")
    if Label.AGE not in policy.phi_labels:
        rules.append("- Do not tag ages: this project keeps them.")
    elif policy.age_over is not None:
        rules.append(f"- Tag an age only when it is over {policy.age_over}.")
    if policy.keep_years:
        rules.append("- Do not tag a year on its own ('in 2008', '1997'): years are kept.")
    return rules


def build_schema(labels: tuple[Label, ...], bounds: SchemaBounds) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "entities": {
                "type": "array",
                "maxItems": bounds.max_items,
                "items": {
                    "type": "object",
                    "properties": {
                        "label": {"type": "string", "enum": [label.value for label in labels]},
                        "text": {"type": "string", "minLength": 1,
                                 "maxLength": bounds.max_length},
                    },
                    "required": ["label", "text"],
                },
            },
        },
        "required": ["entities"],
    }


@lru_cache(maxsize=1)
def _template() -> str:
    return resource("prompts", "phi_extraction.txt").read_text(encoding="utf-8")


def system_prompt(policy: Policy) -> str:
    labels = requested_labels(policy)
    definitions = "\n".join(f"- {label.value}: {DEFINITIONS[label]}" for label in labels)
    example = {"entities": [{"label": label.value, "text": text}
                            for label, text in _EXAMPLE if label in labels]}
    return (_template()
            .replace("$DEFINITIONS", definitions)
            .replace("$POLICY_RULES\n", "".join(f"{r}\n" for r in policy_rules(policy)))
            .replace("$EXAMPLE_OUTPUT", json.dumps(example)))


def build_messages(policy: Policy, chunk: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": system_prompt(policy)},
            {"role": "user", "content": f"Text: {chunk}\nOutput:"}]
