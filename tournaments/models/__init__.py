"""The domain model every part of Schafkopfrennen shares, split by concept."""

from .audit import AuditEntry, HandRevision, SeatSwap
from .club import Club, ClubMembership, Player
from .play import Hand, Round, Seat, Table, TableConfirmation
from .printing import PrintPack
from .prizes import PrizeCategory, PrizePlan
from .series import Invitation, Series, SeriesTournament, Wildcard
from .signup import SignUp, SignUpOptions
from .tournament import Prize, Registration, Tournament
from .venue import Venue

__all__ = [
    "AuditEntry",
    "Club",
    "ClubMembership",
    "Hand",
    "HandRevision",
    "Invitation",
    "Player",
    "PrintPack",
    "Prize",
    "PrizeCategory",
    "PrizePlan",
    "Registration",
    "Round",
    "Seat",
    "SeatSwap",
    "Series",
    "SeriesTournament",
    "SignUp",
    "SignUpOptions",
    "Table",
    "TableConfirmation",
    "Tournament",
    "Venue",
    "Wildcard",
]
