"""A game in words on a page: ``{{ hand|game_name }}`` ("Herz-Solo Tout"), ``{{ hand|game_text }}``
("Rufspiel mit der Gras-Sau"); the same words as the printed score sheet (scoring.describe)."""

from django import template

from scoring.describe import describe, game_name, game_text

register = template.Library()


@register.filter(name="game_name")
def game_name_of(game) -> str:
    return game_name(describe(game))


@register.filter(name="game_text")
def game_text_of(game) -> str:
    return game_text(describe(game))
