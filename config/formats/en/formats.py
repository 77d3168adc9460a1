"""English dates as the pages have always shown them (Django's own English formats are American)."""

DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y H:i"
TIME_FORMAT = "H:i"
# Not a Django setting: the long form a sentence uses ("Member since 1 December 2026"), read by the
# ``long_date`` filter (games/templatetags/figures.py).
LONG_DATE_FORMAT = "j F Y"
