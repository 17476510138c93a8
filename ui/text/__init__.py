"""Ground floor, text and language: ``_()`` and ``tr()`` over the catalogues, texts made valid UTF-8 to draw,
positions for people, session choices kept in the URL."""
