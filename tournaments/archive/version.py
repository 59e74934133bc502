"""Which document the archive is: its format name and version (shared/spec/archive.md)."""
FORMAT = "schafkopfrennen-archive"
VERSION = 1
