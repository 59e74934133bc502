"""QR codes as SVG, drawn by ReportLab's own QR widget (no other QR library)."""
from functools import lru_cache

from reportlab.graphics import renderSVG
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing

QUIET_MODULES = 4  # the blank border a scanner needs, in modules


@lru_cache(maxsize=512)
def qr_svg(data: str) -> str:
    """A standalone SVG document of the QR code for ``data`` (error correction M, with a quiet zone)."""
    widget = QrCodeWidget(data, barLevel="M", barBorder=QUIET_MODULES)
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(x1 - x0, y1 - y0)
    drawing.add(widget)
    return renderSVG.drawToString(drawing)
