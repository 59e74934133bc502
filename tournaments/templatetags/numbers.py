"""Numbers in the pages, formatted in one place (schafkopfrennen/formats.py): German first, one minus sign.

    {% load numbers %}
    {{ value|number }}    −3          {{ value|number:1 }}  10,0
    {{ value|signed }}    +3 / −3 / 0  {{ cents|euro }}      12,50 €
"""
from django import template

from schafkopfrennen import formats

register = template.Library()


@register.filter
def number(value, decimals=None) -> str:
    return formats.number(value, None if decimals in (None, "") else int(decimals))


@register.filter
def signed(value) -> str:
    return "" if value is None or value == "" else formats.signed(value)


@register.filter
def euro(cents) -> str:
    return formats.euro(cents)
