"""The MkDocs side: the `abstracts` plugin, search index, theme, page conversion, `new` sites."""
