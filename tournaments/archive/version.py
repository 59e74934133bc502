"""Which document the archive is: its format name and version (docs/archive.md)."""
FORMAT = "schafkopfrennen-archive"
VERSION = 1
