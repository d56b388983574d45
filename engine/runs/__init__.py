"""Running files: one driver (``driver.run_files``) with two sinks, a folder
(``folder.FolderSink``, `clearnote deid FILE_OR_DIR --output-dir`) and a project
(``project.ProjectSink``, `clearnote batch`), and one outcome and report type
(``outcome``). Above ``engine.project``, below ``engine.api``.

    outcome       FileOutcome, RunReport: what happened to each input, for the person and
                  for report.csv
    driver        output folder check, discovery, ids, duplicates, workers, cancellation,
                  report.csv and the key
    folder        the folder sink (a Session; the key beside the inputs)
    project       the project sink (import → detect → export; the key stays in the project)
    store_thread  the project sink's store-and-export thread
"""
