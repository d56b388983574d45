"""PHI detectors: small, pure, versioned. ``detect(doc, ctx) -> list[Span]``, no I/O."""
