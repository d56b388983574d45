"""EHR extracts as tables: column roles (``roles``), the schema a person confirms
(``schema``), CSV read and written as it was (``csvio``), one row de-identified by its
roles (``transform``), and a table streamed through them (``run``). The folder sink of
``engine.runs`` hands tables here."""
