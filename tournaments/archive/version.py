"""Which document the archive is: its format name and version (docs/archive.md; what version 2
adds: docs/archive-v2.md). Build writes VERSION; the importer reads every version in READABLE."""

FORMAT = "schafkopfrennen-archive"
VERSION = 2
READABLE = (1, 2)  # a version-1 archive has none of version 2's keys: each is read with its default
