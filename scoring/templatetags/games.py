"""A game in words on a page: ``{{ hand|game_name }}`` ("Herz-Solo Tout"), ``{{ hand|game_text }}``
("Rufspiel mit der Gras-Sau"); the same words as the printed score sheet (scoring.describe)."""
from django import template

from scoring.describe import describe, game_name as _game_name, game_text as _game_text

register = template.Library()


@register.filter
def game_name(game) -> str:
    return _game_name(describe(game))


@register.filter
def game_text(game) -> str:
    return _game_text(describe(game))
