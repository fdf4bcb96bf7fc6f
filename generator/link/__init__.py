"""Stage 3, corpus level: what needs every paper at once (key phrases, tags, mentions, related papers)."""
