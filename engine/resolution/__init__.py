"""Resolution: from every detector's candidates to the spans a document keeps.

The stage after detection (DESIGN.md section 4). ``engine.detectors`` proposes, this package
decides:

- ``segments``: long texts are detected and screened in bounded, overlapping segments;
- ``edges`` and ``guards``: rules that hold for every detector (span edges, dates that parse,
  numbers inside measurements, clinical words in name position, blank lines);
- ``measurements``: what a number in a clinical note is, by its form;
- ``allowlist``: the shipped clinical vocabulary that recovers false positives;
- ``overlaps``: the named overlap policies (losers kept as SUPERSEDED);
- ``vocabulary``: a project's own clinical language (``LocalVocabulary``, from its profile);
- ``protect``: what nothing a project learned may drop (dictionary names, checksum-valid
  identifiers, dates that parse);
- ``resolver``: the order of the above, with room for what a project learns (a local
  clinical vocabulary, a learned resolver), each a ``Recoverer``.

The package imports nothing heavy on import: ``engine.detectors.ner`` reads ``edges`` from it.
"""
