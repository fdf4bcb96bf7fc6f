"""Stage 4: Papers -> the generated files' text (Markdown with front matter, feeds, papers.json)."""
