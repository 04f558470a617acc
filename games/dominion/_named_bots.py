"""Dominion's named buy-list bots as data: the Big Money family, the blog's three and the
base set's standard bots (the cross-check against pyminion plays the same buy lists).

Each entry is ``name -> (buy list, one-line description)`` in the grammar of
:mod:`games.dominion._buylist`; :mod:`games.dominion._bots` turns them into bots.
:data:`COMMUNITY` gives the names Dominion players use for them (the first is the one
shown); any of them, in any case, spacing or hyphenation, names the bot.
"""

from __future__ import annotations

from games.bot_names import find_bot

# name -> (buy list, one-line description)
NAMED: dict[str, tuple[str, str]] = {
    "big-money": (
        "province | gold | silver",
        "Province with $8+, Gold with $6-7, Silver with $3-5 (the baseline)"),
    "big-money-ultimate": (
        "province@money>18 | duchy@gains<=4 | estate@gains<=2 | gold | duchy@gains<=6 | silver",
        "Big Money with Province only once money in deck > 18 and Duchy/Estate endgame rules"),
    "smithy-big-money": (
        "province@money>15 | duchy@gains<=4 | estate@gains<=2 | gold | duchy@gains<=6"
        " | smithy:1 | smithy:2@cards>=16 | silver",
        "Big Money Ultimate's endgame, one Smithy early and a second at 16+ cards"),
    "blog-big-money": (
        "province | gold | silver",
        "seed 004's Money deck (same buys as big-money)"),
    "blog-smithy": (
        "province | gold | smithy@dshare<1/20 | silver",
        "seed 004's Smithy bot: Smithy while Smithies in draw+discard are under 1/20 of cards"),
    "blog-steward": (
        "province | gold | steward@dshare<1/20 | silver",
        "seed 004's Steward bot: Steward while Stewards in draw+discard are under 1/20"),
    # The base set's standard bots (the cross-check against pyminion plays the same ones).
    "double-witch": (
        "province | gold | witch:2 | silver",
        "Big Money with two Witches (base set)"),
    "double-witch-ultimate": (
        "province@money>18 | duchy@gains<=4 | estate@gains<=2 | gold | witch:2"
        " | duchy@gains<=6 | silver",
        "Double Witch with Big Money Ultimate's Duchy/Estate endgame (a sterner Double Witch)"),
    "double-militia": (
        "province | gold | militia:2 | silver",
        "Big Money with two Militias (base set)"),
    "laboratory-big-money": (
        "province | gold | laboratory | silver",
        "Big Money buying a Laboratory whenever it has $5 (base set)"),
    "council-room-big-money": (
        "province | gold | council-room:1 | silver",
        "Big Money with one Council Room (base set)"),
    "moneylender-big-money": (
        "province | gold | moneylender:1 | silver",
        "Big Money with one Moneylender, trashing Coppers (base set)"),
    "bandit-big-money": (
        "province | gold | bandit:1 | silver",
        "Big Money with one Bandit (base set)"),
    "bureaucrat-big-money": (
        "province | gold | bureaucrat:1 | silver",
        "Big Money with one Bureaucrat (base set)"),
    "moat-big-money": (
        "province | gold | moat:2 | silver",
        "Big Money with two Moats against attacks (base set)"),
    "chapel-witch": (
        "province | gold | witch:1 | chapel:1 | silver",
        "one Witch and one Chapel, then money (base set)"),
    "workshop-gardens": (
        "province | gardens | workshop | estate@gains<=6 | copper",
        "Workshop/Gardens as a buy list alone, its Workshops gaining what it would buy "
        "(the cross-check plan's bot)"),
    "workshop-gardens-standard": (
        "workshop:8 | gardens | estate@empty>=1 | copper"
        " | gain: gardens | workshop | estate | silver",
        "the standard Workshop/Gardens: eight Workshops, Gardens, Estates once a pile is "
        "empty, Coppers; its Workshops gain Gardens, then Workshops, then Estates (base set)"),
}

# name -> the names players use for it, the usual one first (``tabletune bots dominion``
# shows it); any spelling of a name or of the bot's own name (Chapel/Witch, chapel witch)
COMMUNITY: dict[str, tuple[str, ...]] = {
    "big-money": ("Big Money", "BM"),
    "big-money-ultimate": ("Big Money Ultimate", "BMU"),
    "smithy-big-money": ("Smithy Big Money", "Smithy BM"),
    "double-witch": ("Double Witch",),
    "double-witch-ultimate": ("Double Witch Ultimate", "DW Ultimate"),
    "double-militia": ("Militia Big Money", "Militia BM"),
    "laboratory-big-money": ("Laboratory Big Money", "Lab Big Money", "Lab BM"),
    "council-room-big-money": ("Council Room Big Money", "Council Room BM"),
    "moneylender-big-money": ("Moneylender Big Money", "Moneylender BM"),
    "bandit-big-money": ("Bandit Big Money", "Bandit BM"),
    "bureaucrat-big-money": ("Bureaucrat Big Money", "Bureaucrat BM"),
    "moat-big-money": ("Moat Big Money", "Moat against attacks", "Moat BM"),
    "chapel-witch": ("Chapel/Witch", "Chapel Witch"),
    "workshop-gardens": ("Workshop/Gardens", "Workshop Gardens"),
    "workshop-gardens-standard": ("Gardens/Workshop", "Standard Workshop/Gardens"),
}


def named_bot(text: str) -> str | None:
    """The named bot that ``text`` names, by its name or a community name in any
    spelling; None for any other text."""
    return find_bot(text, {name: COMMUNITY.get(name, ()) for name in NAMED})
