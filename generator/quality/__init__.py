"""Scoring what the generator derives against labelled corpora (not imported at run time)."""
