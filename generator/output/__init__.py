"""Stage 5: writing the generated files into the docs folder."""
