"""Issue 15: Word headers, footers and text boxes go through detection like the body. The
hostile tester's DOCX had `BARTHOLOMEW RAVENSWORTH<tab>MRN 99887766` in the header (all caps,
a tab): the MRN was replaced, the name survived. Every name below must be gone from every
file `clearnote deid` writes, with the rules alone and with the NER model."""

from __future__ import annotations

from pathlib import Path

from engine.cli import main
from tests.markers import needs_ner

NS = ('xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
      'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
      'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
      'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
      'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
      'xmlns:v="urn:schemas-microsoft-com:vml"')


def _text_box_run(text: str):  # type: ignore[no-untyped-def]
    """A floating text box as Word writes it: a DrawingML shape (mc:Choice) with a VML copy
    (mc:Fallback)."""
    from docx.oxml import parse_xml

    content = (f'<w:txbxContent><w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'
               '</w:txbxContent>')
    return parse_xml(
        f'<w:r {NS}><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
        '<wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" '
        'behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/>'
        '<wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH>'
        '<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>'
        '<wp:extent cx="2000000" cy="500000"/><wp:wrapNone/><wp:docPr id="7" name="Text Box 7"/>'
        '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/'
        'wordprocessingShape"><wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr/>'
        f'<wps:txbx>{content}</wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic>'
        '</wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox>'
        f'{content}</v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>')


def write_letter(path: Path, *, footer: str, text_box: str) -> Path:
    import docx

    document = docx.Document()
    section = document.sections[0]
    header = section.header.paragraphs[0]
    header.add_run("BARTHOLOMEW RAVENSWORTH")
    header.add_run().add_tab()
    header.add_run("MRN 99887766")
    section.footer.paragraphs[0].text = footer
    document.add_paragraph("CONSULTATION NOTE")
    document.add_paragraph("The patient was seen today for follow-up of hypertension. Blood "
                           "pressure is well controlled on ramipril 5 mg daily.")
    box = document.add_paragraph("Contact details are in the box: ")
    box._p.append(_text_box_run(text_box))
    document.add_paragraph("Plan: continue current medications and recheck in three months.")
    document.save(str(path))
    return path


def _exported(out: Path) -> str:
    files = [p for p in out.rglob("*") if p.is_file()]
    assert any(p.name.endswith(".deid.txt") for p in files)
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in files)


def _check(tmp_path: Path, footer: str, text_box: str, names: list[str],
           extra: list[str]) -> str:
    src = tmp_path / "in"
    src.mkdir()
    letter = write_letter(src / "letter.docx", footer=footer, text_box=text_box)
    from engine.ingest import load_document

    text = load_document(letter).text
    for value in ["BARTHOLOMEW RAVENSWORTH\tMRN 99887766", footer, text_box]:
        assert value in text  # ingest reads header, footer and the text box (once)
    assert text.count(text_box) == 1
    out = tmp_path / "out"
    assert main(["deid", str(src), "--output-dir", str(out), "--no-progress",
                 "--formats", "txt", "json", "csv", *extra]) == 0
    exported = _exported(out)
    for value in ["BARTHOLOMEW", "RAVENSWORTH", "99887766", *names]:
        assert value.casefold() not in exported.casefold(), value
    deid = next(out.glob("*.deid.txt")).read_text(encoding="utf-8")
    assert "ramipril 5 mg daily" in deid  # the clinical body is kept
    assert "\tMRN " in deid  # the header's layout is kept around the surrogates
    return deid


def test_header_footer_and_text_box_names_are_replaced_by_the_rules(tmp_path: Path) -> None:
    _check(tmp_path, footer="Patient: Ignatius Thistlewood   Page 1",
           text_box="Re: Rosalind Blackthorne, 416-555-0142",
           names=["Ignatius", "Thistlewood", "Rosalind", "Blackthorne", "416-555-0142"],
           extra=["--no-ner"])


@needs_ner
def test_uncued_names_in_footer_and_text_box_are_replaced_with_ner(tmp_path: Path) -> None:
    _check(tmp_path, footer="Prepared for Ignatius Thistlewood, DOB 1958-07-21. Page 1",
           text_box="Contact: Rosalind Blackthorne (daughter) 416-555-0142",
           names=["Ignatius", "Thistlewood", "Rosalind", "Blackthorne", "1958-07-21",
                  "416-555-0142"],
           extra=[])
