"""Certificates (Urkunden) for the best places: one A4 page each, drawn on a canvas.

The organising club's logo (if one was uploaded and can be read) at the top, a large title, the
tournament, its date and venue, the player's name, points and place, and lines for the place and
date and the organiser's signature.
"""

from __future__ import annotations

import datetime
import io
from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader, simpleSplit

from .drawing import BOLD, REGULAR, Canvas, draw_logo, fit_text, logo_image, mm, new_canvas, number


@dataclass(frozen=True)
class Certificate:
    place: int
    name: str
    points: int
    club: str


@dataclass(frozen=True)
class Certificates:
    tournament: str
    date: datetime.date
    venue: str
    organiser: str  # the club holding the tournament
    logo: bytes | None  # the club's logo file (PNG or JPEG), None without one
    certificates: tuple[Certificate, ...]
    current: bool = True  # False: the standings may still change (printed small at the foot)


PAGE_W, PAGE_H = A4
CENTRE = PAGE_W / 2
BORDER = 12 * mm  # the outer frame's distance from the edge
INNER = 2.2 * mm  # the inner frame inside the outer one
TEXT_W = PAGE_W - 2 * BORDER - 20 * mm
LOGO_MAX_W = 70 * mm
LOGO_MAX_H = 40 * mm
LOGO_TOP = 24 * mm  # from the top of the page
NO_LOGO_TITLE = 60 * mm  # the title's distance below LOGO_TOP when there is no logo
SIGNATURE_Y = 42 * mm  # from the bottom
SIGNATURE_W = 70 * mm

TITLE_SIZE = 54
TOURNAMENT_SIZE = 22
NAME_SIZE = 32
TEXT_SIZE = 17
PLACE_SIZE = 40
LINE_GAP = 5 * mm


def _points(points: int) -> str:
    return number(points)


def _centred(canv: Canvas, y: float, text: str, font: str, size: float, width: float = TEXT_W) -> None:
    text, fitted = fit_text(text, font, size, width, minimum=min(size / 2, 12))
    canv.setFont(font, fitted)
    canv.drawCentredString(CENTRE, y, text)


def _frame(canv: Canvas) -> None:
    canv.setLineWidth(2.2)
    canv.rect(BORDER, BORDER, PAGE_W - 2 * BORDER, PAGE_H - 2 * BORDER)
    canv.setLineWidth(0.6)
    canv.rect(BORDER + INNER, BORDER + INNER, PAGE_W - 2 * (BORDER + INNER), PAGE_H - 2 * (BORDER + INNER))


def _draw_certificate(canv: Canvas, data: Certificates, logo: ImageReader | None, cert: Certificate) -> None:
    canv.setFillGray(0)
    canv.setStrokeGray(0)
    _frame(canv)
    y = PAGE_H - LOGO_TOP
    if logo is not None:
        draw_logo(canv, logo, centre_x=CENTRE, top=y, max_w=LOGO_MAX_W, max_h=LOGO_MAX_H)
        y -= LOGO_MAX_H + 24 * mm
    else:
        y -= NO_LOGO_TITLE
    _centred(canv, y, _("Certificate"), BOLD, TITLE_SIZE)
    y -= 22 * mm
    for line in simpleSplit(data.tournament, BOLD, TOURNAMENT_SIZE, TEXT_W)[:2]:
        _centred(canv, y, line, BOLD, TOURNAMENT_SIZE)
        y -= TOURNAMENT_SIZE * 1.25
    when = date_format(data.date, "DATE_FORMAT")
    _centred(canv, y - 1 * mm, f"{when} \u00b7 {data.venue}" if data.venue else when, REGULAR, 13)
    y -= 30 * mm
    # Translators: three lines on the certificate: the name, the points, the place.
    text = _("%(name)s\nwith %(points)s points took\n%(place)d. place") % {
        "name": cert.name,
        "points": _points(cert.points),
        "place": cert.place,
    }
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    styles = [
        (BOLD, NAME_SIZE) if index == 0 else (BOLD, PLACE_SIZE) if index == len(lines) - 1 else (REGULAR, TEXT_SIZE)
        for index in range(len(lines))
    ]
    for index, (line, (font, size)) in enumerate(zip(lines, styles, strict=True)):
        if index:  # from the last line's descent to this one's ascent
            y -= styles[index - 1][1] * 0.25 + LINE_GAP + size * 0.75
        _centred(canv, y, line, font, size)
    if cert.club:
        _centred(canv, y - PLACE_SIZE * 0.25 - LINE_GAP - 13 * 0.75, cert.club, REGULAR, 13)
    _signature(canv, data)
    if not data.current:
        canv.setFont(REGULAR, 8)
        canv.drawCentredString(CENTRE, BORDER + INNER + 3 * mm, _("Printed before the standings were final."))


def _signature(canv: Canvas, data: Certificates) -> None:
    left_x = BORDER + 16 * mm
    right_x = PAGE_W - BORDER - 16 * mm - SIGNATURE_W
    y = SIGNATURE_Y
    canv.setLineWidth(0.6)
    canv.line(left_x, y, left_x + SIGNATURE_W, y)
    canv.line(right_x, y, right_x + SIGNATURE_W, y)
    when = date_format(data.date, "SHORT_DATE_FORMAT")
    place_date = f"{data.venue}, {when}" if data.venue else when
    place_date, size = fit_text(place_date, REGULAR, 11, SIGNATURE_W)
    canv.setFont(REGULAR, size)
    canv.drawCentredString(left_x + SIGNATURE_W / 2, y + 2 * mm, place_date)
    canv.setFont(REGULAR, 8.5)
    canv.drawCentredString(left_x + SIGNATURE_W / 2, y - 4 * mm, _("Place, date"))
    canv.drawCentredString(right_x + SIGNATURE_W / 2, y - 4 * mm, _("For the organiser"))
    organiser, size = fit_text(data.organiser, REGULAR, 8.5, SIGNATURE_W)
    canv.setFont(REGULAR, size)
    canv.drawCentredString(right_x + SIGNATURE_W / 2, y - 8 * mm, organiser)


def render_certificates(data: Certificates) -> bytes:
    buffer = io.BytesIO()
    canv = new_canvas(buffer, pagesize=A4, title=_("Certificates") + f" \u2013 {data.tournament}")
    logo = logo_image(data.logo)
    for cert in data.certificates:
        _draw_certificate(canv, data, logo, cert)
        canv.showPage()
    if not data.certificates:
        canv.setFont(REGULAR, 14)
        canv.drawCentredString(CENTRE, PAGE_H / 2, _("No standings yet."))
        canv.showPage()
    canv.save()
    return buffer.getvalue()


__all__ = ["Certificate", "Certificates", "render_certificates"]
