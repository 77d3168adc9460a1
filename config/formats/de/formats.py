"""German dates: "1. Dez. 2026", "01.12.2026, 17:26", "1. Dezember 2026"; the rest (digit grouping,
input formats) stays Django's German."""

DATE_FORMAT = "j. N Y"
DATETIME_FORMAT = "d.m.Y, H:i"
TIME_FORMAT = "H:i"
LONG_DATE_FORMAT = "j. F Y"
