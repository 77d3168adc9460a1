"""Usernames as people read them: two names are one name when their UTS #39 confusable skeletons are
equal, and some names are the site's own. Pure: no database (accounts.services asks it)."""

from __future__ import annotations

import hashlib
import string
import unicodedata

# PyICU: ICU is the Unicode consortium's own implementation of UTS #39, with confusables.txt as its data
# (the pure-Python packages on PyPI either detect mixed scripts without a skeleton, or fold with tables
# of their own; see docs/RELIABILITY.md).
import icu

# Computer players' usernames start with it (games/computers/players.py makes them): a person under one
# would be taken for a computer everywhere.
COMPUTER_PREFIX = "computer-"

# A deleted account's placeholder name starts with it (play/account_data.py makes them): a person under
# one would pass for a deleted account, and could take a placeholder's name before it is given.
DELETED_PREFIX = "deleted-"

# The site's own words: its name and staff, the first part of its addresses, and the words a page or a
# script may print for nobody. A person under one could pass for the site.
RESERVED_WORDS = (
    *("dicehall", "admin", "administrator", "root", "superuser", "sysadmin", "staff", "support"),
    *("moderator", "mod", "owner", "official", "team", "system", "security", "abuse", "help", "info"),
    *("contact", "postmaster", "webmaster", "hostmaster", "noreply", "no-reply", "server", "bot"),
    *("accounts", "games", "groups", "players", "notices", "chat", "highscores", "api"),
    *("static", "media", "healthz", "i18n", "jsi18n", "login", "logout", "signup", "profile"),
    *("null", "none", "nil", "undefined", "anonymous", "nobody", "everyone", "all", "guest"),
    *("unknown", "deleted", "computer", "following", "search"),
)

# One checker for the process: ICU lets threads share a spoof checker that nobody reconfigures.
_checker = icu.SpoofChecker()

# A capital of another script is read as the Latin capital that shares its skeleton: case folding
# would turn it into a small letter that looks like something else (the Greek capital nu reads as N,
# its small letter as v; the Cyrillic capital ka as K, its small letter as a small capital), so that
# names in such capitals would pass beside the Latin names they spell.
_LATIN_CAPITALS = {_checker.getSkeleton(0, c): c for c in string.ascii_uppercase}


def _capital_as_latin(char: str) -> str:
    if char.isascii() or char.casefold() == char:
        return char
    return _LATIN_CAPITALS.get(_checker.getSkeleton(0, char), char)


def skeleton(username: str) -> str:
    """ICU's UTS #39 skeleton of the name after NFKC and case folding (other scripts' capitals read as
    Latin ones first, above), folded again: confusables.txt's prototypes keep their case (the digit 0
    reads as O), and the comparison ignores case.

    Last, i is read as l. The capital I is drawn as the small l in the sans-serif faces pages use
    (confusables.txt maps I to l), yet case folding, which has to come first, makes it an i: "aIice"
    passed beside "alice". With case ignored, I is both i and l, so the two letters are one here."""
    normal = unicodedata.normalize("NFKC", username)
    folded = "".join(map(_capital_as_latin, normal)).casefold()
    return _checker.getSkeleton(0, folded).casefold().replace("i", "l")


def username_key(username: str) -> str:
    """What the database compares (User.name_key): the skeleton's SHA-256, in hex. A skeleton can be
    seven times its name (a Hangul syllable becomes seven letters), and a 150-letter name's would
    outgrow the largest entry of a PostgreSQL index (2,704 bytes); a digest never does."""
    return hashlib.sha256(skeleton(username).encode()).hexdigest()


_RESERVED = frozenset(skeleton(word) for word in RESERVED_WORDS)
_COMPUTER = skeleton(COMPUTER_PREFIX)
_DELETED = skeleton(DELETED_PREFIX)


def is_reserved(username: str) -> bool:
    return skeleton(username) in _RESERVED


def reads_as_a_computer(username: str) -> bool:
    """True for a name that starts with COMPUTER_PREFIX as people read it (any case, any look-alike)."""
    return skeleton(username).startswith(_COMPUTER)


def is_deleted_name(username: str) -> bool:
    """True for a name that starts with DELETED_PREFIX as people read it (any case, any look-alike)."""
    return skeleton(username).startswith(_DELETED)
