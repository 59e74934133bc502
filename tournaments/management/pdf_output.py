"""What the print commands share: the output folder is checked before any work, the PDF written whole."""

import os
from collections.abc import Callable

from django.core.management.base import CommandError

from tournaments.pdf.fonts import FontMissing


def output_folder_check(output: str) -> None:
    folder = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(folder):
        raise CommandError(f"output: the folder {folder} does not exist")


def pdf_write(output: str, render: Callable[[], bytes]) -> bytes:
    """Render the document and write it to ``output``; every failure is a CommandError naming its cause."""
    output_folder_check(output)
    try:
        pdf = render()
    except FontMissing as err:
        raise CommandError(f"font: {err}") from err
    try:
        with open(output, "wb") as fh:
            fh.write(pdf)
    except OSError as err:
        raise CommandError(f"output: cannot write {output}: {err.strerror}") from err
    return pdf
