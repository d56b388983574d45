from __future__ import annotations

from desktop.app import smoke_test


def test_smoke_test_deidentifies_a_letter() -> None:
    assert smoke_test() == 0
