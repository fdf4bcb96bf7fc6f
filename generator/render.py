"""Papers -> the generated files (path -> text): Markdown pages with YAML front matter
rendered from the Jinja2 templates in templates/, plus papers.json.

The site's generated structure is declared once in SECTIONS; each section owns a
folder of docs/ and nothing outside it is ever removed.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

import frontmatter
import jinja2
import yaml

from . import __version__
from .enrich import slugify
from .link import MAX_MENTIONED_BY, GlossaryEntry
from .markup import escape_markdown, link_names
from .model import Paper
from .parallel import ordered_map
from .topicmap import positions

MARKER = "abstracts-site"  # every generated page says `generated_by: abstracts-site`
MIN_PAPERS_PER_TAG_PAGE = 2


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
}
ROOT_FILES = ("index.md", "glossary.md", "map.md", "papers.json")


@dataclass(frozen=True)
class Group:
    name: str
    slug: str | None  # None when the group has no page of its own
    count: int


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("generator", "templates"),
        autoescape=False,  # Markdown output: values are escaped with the `md` filter instead
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md"] = lambda value: escape_markdown(str(value))
    return env


@cache
def _escaping_environment() -> jinja2.Environment:
    """HTML and XML templates (chart, map, feeds): every value autoescaped, it comes from input."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("generator", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def area_chart(areas: list[Group]) -> str:
    """Papers per area as an HTML list with build-time SVG bars (longest bar = most papers)."""
    html = _escaping_environment().get_template("area_chart.html.j2").render(
        areas=areas, max_count=max((a.count for a in areas), default=1)
    )
    # One line: Markdown passes a raw HTML block through only while it has no blank lines.
    return " ".join(html.split())


def topic_map(papers: list[Paper], areas: list[Group]) -> str:
    """The map page's HTML: a positioned link per paper and a legend of areas."""
    colour = {a.name: index for index, a in enumerate(areas)}
    points = [
        {"title": p.title, "slug": p.slug, "x": round(100 * x, 2), "y": round(100 * y, 2), "area": colour[p.area]}
        for p, (x, y) in zip(papers, positions(papers))
    ]
    html = _escaping_environment().get_template("topic_map.html.j2").render(points=points, areas=areas)
    return " ".join(html.split())


def feed(collection: str, slug: str, papers: list[Paper], updated: str, site_url: str | None) -> str:
    """An Atom feed of one collection (autoescaped XML; links relative to feeds/)."""
    return _escaping_environment().get_template("feed.xml.j2").render(
        collection=collection, slug=slug, papers=papers, updated=updated, site_url=site_url
    )


def _page(template: str, metadata: dict, **context) -> str:
    body = _environment().get_template(template).render(**context)
    post = frontmatter.Post(body.strip() + "\n", **{**metadata, "generated_by": MARKER})
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml when available: ~10x faster
    return frontmatter.dumps(post, Dumper=dumper, sort_keys=False, allow_unicode=True, width=1000) + "\n"


def _tag_pages(papers: list[Paper]) -> dict[str, list[Paper]]:
    by_tag: dict[str, list[Paper]] = defaultdict(list)
    for paper in papers:
        for tag in paper.tags:
            by_tag[tag].append(paper)
    return {tag: members for tag, members in by_tag.items() if len(members) >= MIN_PAPERS_PER_TAG_PAGE}


def page_slugs(names: Iterable[str]) -> dict[str, str]:
    """Each group's page name: its slug, numbered when another name makes the same slug ('RL'
    and 'rl', or names of symbols only), so that no group's page replaces another's."""
    slugs: dict[str, str] = {}
    taken: set[str] = set()
    for name in sorted(names):
        slug, number = slugify(name), 1
        while slug in taken:
            number += 1
            slug = f"{slugify(name)}-{number}"
        slugs[name] = slug
        taken.add(slug)
    return slugs


def paper_record(paper: Paper, slugs: dict[str, dict[str, str]]) -> dict:
    """Every derived field of a paper: front matter and papers.json share this shape."""
    return {
        "id": paper.id,
        "title": paper.title,
        "summary": paper.summary,
        "name": paper.name,
        "tags": list(paper.tags),
        "keyphrases": list(paper.keyphrases),
        "area": paper.area,
        "collection": paper.collection,
        "url": f"papers/{paper.slug}/",
        "links": [{"kind": l.kind, "label": l.label, "url": l.url} for l in paper.links],
        "acronyms": [{"short": a.short, "long": a.long} for a in paper.acronyms],
        "related": [
            {"id": r.id, "title": r.title, "url": f"papers/{r.slug}/", "score": r.score, "reasons": list(r.reasons)}
            for r in paper.related
        ],
        "mentions": [{"name": m.name, "id": m.id, "title": m.title, "url": f"papers/{m.slug}/"} for m in paper.mentions],
        "mentioned_by": [
            {"name": m.name, "id": m.id, "title": m.title, "url": f"papers/{m.slug}/"}
            for m in paper.mentioned_by[:MAX_MENTIONED_BY]
        ],
        "mentioned_by_count": len(paper.mentioned_by),
        "authors": list(paper.authors),
        "source": {
            "file": paper.origin.file,
            "record": paper.origin.record,
            "line": paper.origin.line,
            "id": paper.origin.record_id,
        },
        "also_in": [{"file": o.file, "record": o.record, "line": o.line} for o in paper.also_in],
        "tag_urls": {tag: f"tags/{slugs['tags'][tag]}/" for tag in paper.tags if tag in slugs["tags"]},
        "area_url": f"areas/{slugs['areas'][paper.area]}/",
        "collection_url": f"collections/{slugs['collections'][paper.collection]}/",
    }


def _paper_page(paper_and_record: tuple[Paper, dict]) -> str:
    paper, record = paper_and_record
    return _page(
        "paper.md.j2",
        {"template": "paper.html", **record, "description": paper.summary},
        body=link_names(paper.body, {m.name: f"{m.slug}.md" for m in paper.mentions}),
        mentions=paper.mentions,
        glossary=paper.acronyms,
    )


# The last run's paper pages by everything they are made of. The caller keeps one for as long
# as it runs the generator again (the plugin, under `mkdocs serve`): an edit then re-renders
# only the pages whose content changed. None for one-off builds: it would only cost memory
# (~2x the pages' text).
RenderedPages = dict[tuple[str, str], str]


def _paper_pages(papers: list[Paper], records: list[dict], remembered: RenderedPages | None) -> dict[str, str]:
    _environment().get_template("paper.md.j2")  # compiled once, before the workers fork
    if remembered is None:
        pages = ordered_map(_paper_page, list(zip(papers, records)))
        return {f"papers/{paper.slug}.md": page for paper, page in zip(papers, pages)}
    keys = [(json.dumps(record, ensure_ascii=False, sort_keys=True), paper.body) for paper, record in zip(papers, records)]
    missing = [index for index, key in enumerate(keys) if key not in remembered]
    fresh = dict(zip(missing, ordered_map(_paper_page, [(papers[i], records[i]) for i in missing])))
    pages = {f"papers/{paper.slug}.md": fresh[i] if i in fresh else remembered[keys[i]] for i, paper in enumerate(papers)}
    remembered.clear()
    remembered.update({key: pages[f"papers/{paper.slug}.md"] for key, paper in zip(keys, papers)})
    return pages


def render_site(
    papers: list[Paper],
    glossary: list[GlossaryEntry],
    site_title: str,
    updated: str = "1970-01-01T00:00:00Z",
    site_url: str | None = None,
    remembered: RenderedPages | None = None,
) -> dict[str, str]:
    """All generated files, keyed by path relative to the docs folder. `updated` dates the
    feeds (abstracts carry no dates); `site_url` makes their links absolute; paper pages in
    `remembered` (updated here) are not rendered again."""
    files: dict[str, str] = {}
    tag_pages = _tag_pages(papers)
    by_id = {p.id: p for p in papers}
    by_area = _members(papers, lambda p: p.area)
    by_collection = _members(papers, lambda p: p.collection)
    slugs = {"tags": page_slugs(tag_pages), "areas": page_slugs(by_area), "collections": page_slugs(by_collection)}
    tag_slugs = slugs["tags"]
    records = [paper_record(p, slugs) for p in papers]  # front matter and papers.json

    files.update(_paper_pages(papers, records, remembered))

    sections = [
        ("tags", tag_pages, lambda t: f"Papers tagged *{escape_markdown(t)}*."),
        ("areas", by_area, lambda a: "Papers whose main topic is this area."),
        ("collections", by_collection, lambda c: f"Papers in this collection ([Atom feed](../feeds/{slugs['collections'][c]}.xml))."),
    ]
    for folder, members_by_name, intro in sections:
        section = SECTIONS[folder]
        for name, members in members_by_name.items():
            files[f"{folder}/{slugs[folder][name]}.md"] = _page(
                "listing.md.j2",
                {"title": name},
                heading=name,
                intro=f"{intro(name)} {len(members)} paper{'s' if len(members) != 1 else ''}.",
                papers=sorted(members, key=lambda p: (p.title.casefold(), p.id)),
            )
        groups = [Group(n, slugs[folder][n], len(m)) for n, m in members_by_name.items()]
        groups.sort(key=lambda g: (-g.count, g.name.casefold()))
        files[f"{folder}/index.md"] = _page(
            "overview.md.j2",
            {"title": section.title},
            heading=section.title,
            intro=f"{section.intro} {len(groups)} {section.title.lower()}.",
            label=section.label,
            groups=groups,
        )

    for collection, members in by_collection.items():
        slug = slugs["collections"][collection]
        files[f"feeds/{slug}.xml"] = feed(collection, slug, members, updated, site_url)

    files["glossary.md"] = _page(
        "glossary.md.j2",
        {"title": "Glossary"},
        entries=[{"short": e.short, "long": e.long, "papers": [by_id[i] for i in e.papers]} for e in glossary],
    )
    in_degree = Counter(r.id for p in papers for r in p.related)
    connected = sorted(papers, key=lambda p: (-(in_degree[p.id] + len(p.mentioned_by)), p.title.casefold()))[:10]
    area_groups = [Group(n, slugs["areas"][n], len(m)) for n, m in sorted(by_area.items(), key=lambda i: (-len(i[1]), i[0]))]
    files["map.md"] = _page("map.md.j2", {"title": "Topic map", "hide": ["toc"]}, map_html=topic_map(papers, area_groups))
    files["index.md"] = _page(
        "home.md.j2",
        {"title": site_title, "hide": ["navigation"]},
        site_title=site_title,
        papers=papers,
        collections=by_collection,
        areas=area_groups,
        area_chart=area_chart(area_groups),
        tag_count=len(tag_pages),
        top_tags=sorted((Group(t, tag_slugs[t], len(m)) for t, m in tag_pages.items()), key=lambda g: (-g.count, g.name.casefold()))[:30],
        glossary_count=len(glossary),
        connected=connected,
    )
    files["papers.json"] = json.dumps(
        {
            "generated_by": MARKER,
            "version": __version__,
            "papers": records,
        },
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
    ) + "\n"
    return files


def _members(papers: list[Paper], key) -> dict[str, list[Paper]]:
    groups: dict[str, list[Paper]] = defaultdict(list)
    for paper in papers:
        groups[key(paper)].append(paper)
    return dict(groups)
