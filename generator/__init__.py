"""Turn research-paper abstracts into a searchable, well-linked MkDocs Material site."""

__version__ = "0.1.0"
