"""The tournament archive of docs/archive.md: one JSON document per tournament."""

from .build import archive_build
from .load import ArchiveError, archive_import, archive_parse
from .version import FORMAT, VERSION

__all__ = ["FORMAT", "VERSION", "ArchiveError", "archive_build", "archive_import", "archive_parse"]
