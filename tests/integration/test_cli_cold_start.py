"""`clearnote detect` imports only what it needs: no store, Qt, LLM, PDF or Spark stack."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engine.cli.main import COMMANDS, _group

# None may be loaded by `clearnote detect` on JSONL text (the gazetteers read shipped copies
# of Faker's lists; the surrogate generators are not built).
HEAVY = ("sqlalchemy", "sqlcipher3", "PySide6", "llama_cpp", "pypdfium2", "pdfplumber",
         "pyspark", "docx", "PIL", "faker", "engine.store", "engine.project",
         "engine.exporters", "engine.surrogates", "engine.ingest.pdf")

CHILD = """
import sys
from engine.cli import main
code = main(sys.argv[1:])
heavy = sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r}
               or any(m == h or m.startswith(h + '.') for h in {heavy!r}))
print('HEAVY', heavy)
sys.exit(code)
"""


def test_detect_on_text_imports_no_heavy_stack(tmp_path: Path) -> None:
    notes = tmp_path / "in.jsonl"
    # Synthetic PHI only.
    notes.write_text(json.dumps({"id": "a", "text": "Seen by Dr. Mara Quinn on 3 March 2021."})
                     + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = subprocess.run(
        [sys.executable, "-c", CHILD.format(heavy=HEAVY), "detect", "--input", str(notes),
         "--output", str(out), "--no-ner", "--no-progress"],
        capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2])
    assert result.returncode == 0, result.stderr[-2000:]
    assert "HEAVY []" in result.stdout, result.stdout
    spans = json.loads(out.read_text(encoding="utf-8"))["spans"]
    assert {s["label"] for s in spans} >= {"DATE"}


def test_every_command_is_registered_by_the_group_named_for_it() -> None:
    import argparse

    for group in dict.fromkeys(COMMANDS.values()):
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        _group(group).register(sub)
        registered = set(sub.choices)
        assert registered == {c for c, g in COMMANDS.items() if g == group}, group
