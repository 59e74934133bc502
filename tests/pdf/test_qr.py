"""The QR codes: ReportLab's encoder, with a faster but identical choice of mask."""
import random
import string

from reportlab.graphics.barcode.qr import QrCodeWidget

from tournaments.pdf.qr import QUIET_ZONE, mask_penalty, qr_code, qr_modules


def links(n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    hosts = ["https://rennen.example.org", "http://192.168.178.20:8000", "http://127.0.0.1:8000", "https://x.de"]
    alphabet = string.ascii_letters + string.digits + "-_"
    return [f"{rng.choice(hosts)}/tisch/{''.join(rng.choice(alphabet) for _ in range(24))}/" for _ in range(n)]


def test_the_same_symbol_as_reportlabs_own_widget():
    versions = set()
    for link in [*links(150), "T", "https://example.org/" + "x" * 60, "https://example.org/" + "Ab1-" * 60]:
        widget = QrCodeWidget(link, barLevel="M")
        widget.qr.make()
        assert qr_modules(link) == widget.qr.modules, link
        versions.add(widget.qr.version)
    assert len(versions) >= 4  # short and long links, several symbol sizes


def test_the_penalty_is_reportlabs():
    from reportlab.graphics.barcode.qrencoder import QRUtil

    for link in links(30, seed=2):
        qr = QrCodeWidget(link, barLevel="M").qr
        qr.version = qr.calculate_version()
        for mask in range(8):
            qr.makeImpl(True, mask)
            assert mask_penalty(qr.modules) == QRUtil.getLostPoint(qr)


def test_the_path_covers_exactly_the_dark_modules():
    link = links(1, seed=7)[0]
    modules = qr_modules(link)
    count, operators = qr_code(link)
    assert count == len(modules)
    dark = set()
    for rect in operators.split(" re"):
        if rect.strip():
            column, row, length, _height = (float(v) for v in rect.split())
            dark |= {(int(row) - QUIET_ZONE, int(column) - QUIET_ZONE + i) for i in range(int(length))}
    assert dark == {(r, c) for r, row in enumerate(modules) for c, cell in enumerate(row) if cell}
