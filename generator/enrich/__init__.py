"""Stage 2, per paper: one Record -> one Paper (names, titles, summaries, tag candidates, links)."""
