"""Settings package: base.py holds everything; local, test and production adjust it."""
