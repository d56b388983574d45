"""Resolution: from every detector's candidates to the spans a document keeps.

The stage after detection (DESIGN.md section 4). ``engine.detectors`` proposes, this package
decides:

- ``segments``: long texts are detected and screened in bounded, overlapping segments;
- ``edges`` and ``guards``: rules that hold for every detector (span edges, dates that parse,
  numbers inside measurements, clinical words in name position, blank lines);
- ``boundaries``: where a span may end (blank lines, line breaks but addresses, field labels,
  clinical words beside a name), called by the guards for every detector;
- ``shorthand``: the word after ``pt``, clinical shorthand (a list built from real
  abbreviation inventories by ``build_shorthand``) and section words are no names or places;
- ``measurements`` and ``chartdates``: what a number in a clinical note is, by its form and
  context (``extub 4/1`` is a date, ``PS 5/5`` a vent setting);
- ``allowlist``: the shipped clinical vocabulary that recovers false positives;
- ``overlaps``: the named overlap policies (losers kept as SUPERSEDED);
- ``vocabulary``: a project's own clinical language (``LocalVocabulary``, from its profile);
- ``protect``: what nothing a project learned may drop (dictionary names, checksum-valid
  identifiers, dates that parse);
- ``learned`` and ``learned_training``: a project's learned resolver (hashed span features,
  a logistic regression whose threshold cross-validation over reviewed documents chose);
- ``resolver``: the order of the above. ``screen`` (per segment): guards, then each
  ``Recoverer`` (the shipped allowlist, then a project's ``LocalVocabulary``). ``settle``
  (per document): the overlap policy, the policy filter, then each decider (the learned
  resolver) on merged spans still undecided: the spans a project stores and a reviewer
  decides, so the resolver is trained and used on the same kind of span. What a project
  learned never drops a ``protect``ed span.

The package imports nothing heavy on import: ``engine.detectors.ner`` reads ``edges`` from it.
"""
