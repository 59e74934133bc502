"""The printed documents of a round, one module each; every ``render_<document>(data) -> bytes``.

``data`` is a plain frozen dataclass (``tournaments.selectors.printing`` builds it), so a document
renders without a database. DejaVu Sans is embedded (``fonts.py``).
"""
