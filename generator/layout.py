"""The site's generated structure, declared once: each section owns a folder of docs/ and
nothing outside it (or ROOT_FILES) is ever removed; every generated file carries MARKER.
Apart from generator.render.site so that checking a run that has nothing to do (generator.runtime.runcache,
generator.output.files) does not import the renderer and what it imports (Jinja2, numpy, scipy).
"""

from __future__ import annotations

from dataclasses import dataclass

MARKER = "abstracts-site"  # every generated page says `generated_by: abstracts-site`


@dataclass(frozen=True)
class Section:
    folder: str
    title: str
    label: str
    intro: str


SECTIONS = {
    "papers": Section("papers", "Papers", "Paper", ""),
    "tags": Section("tags", "Tags", "Tag", "Methods, tasks and concepts, from a curated vocabulary and the abstracts' recurring phrases."),
    "areas": Section("areas", "Areas", "Area", "Each paper's main topic, from a taxonomy modelled on ICLR's primary areas."),
    "collections": Section("collections", "Collections", "Collection", "One collection per input file, or as the records name it."),
    "feeds": Section("feeds", "Feeds", "Feed", "An Atom feed per collection."),
    "authors": Section("authors", "Authors", "Author", "The authors the records name, by surname."),
}
ROOT_FILES = ("index.md", "glossary.md", "map.md", "browse.md", "reading-list.md", "papers.json", "map.json", "browse.json")
