"""Papers -> the generated files (path -> text): Markdown pages with YAML front matter
rendered from the Jinja2 templates in templates/, plus papers.json.

The site's generated structure is declared once, in generator.layout.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from markupsafe import Markup

from generator import __version__
from generator.context import incremental, remembered, reused
from generator.enrich.paper import slugify
from generator.enrich.tagging import vocabulary
from generator.enrich.tags import centrality
from generator.explore.authors import authors
from generator.explore.data import browse_data
from generator.explore.mapfile import area_order, json_text
from generator.layout import MARKER, SECTIONS
from generator.link.corpus import MAX_MENTIONED_BY, GlossaryEntry
from generator.model import Paper
from generator.render.authors import author_files
from generator.render.templating import escaping_environment, html_block, markdown_page
from generator.sources.markup import escape_markdown, link_names

MIN_PAPERS_PER_TAG_PAGE = 2
RELATED_TAGS = 6
MIN_SHARED_PAPERS = 3  # a related tag shares at least this many papers (fewer makes lift noise)
TRENDS = 6  # tags shown rising and falling on the home page


@dataclass(frozen=True)
class Group:
    name: str
    slug: str | None  # None when the group has no page of its own
    count: int


def area_chart(areas: list[Group]) -> str:
    """Papers per area as an HTML list with build-time SVG bars (longest bar = most papers)."""
    html = escaping_environment().get_template("area_chart.html.j2").render(areas=areas, max_count=max((a.count for a in areas), default=1))
    # One line: Markdown passes a raw HTML block through only while it has no blank lines.
    return " ".join(html.split())


NO_DATE = "1970-01-01T00:00:00Z"  # a feed whose collection no input file dates


def feed(
    collection: str, slug: str, papers: list[Paper], updated: str, site_url: str | None, entries: Sequence[tuple[str, str]] | None = None
) -> str:
    """An Atom feed of one collection (autoescaped XML; links relative to feeds/). `entries`:
    each paper's (feed_entry), when the caller has them."""
    if entries is None:
        entries = [feed_entry(collection, p) for p in papers]
    return (
        escaping_environment()
        .get_template("feed.xml.j2")
        .render(collection=collection, slug=slug, papers=papers, updated=updated, site_url=site_url, entries=entries)
    )


def feed_entry(collection: str, paper: Paper) -> tuple[Markup, Markup]:
    """A paper's feed entry before and after its date (the two blocks of feed_entry.xml.j2)."""
    template = escaping_environment().get_template("feed_entry.xml.j2")
    context = template.new_context({"collection": collection, "p": paper})
    return Markup("".join(template.blocks["opening"](context))), Markup("".join(template.blocks["closing"](context)))


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
        "links": [{"kind": l.kind, "label": l.label, "url": l.url} for l in paper.links],  # noqa: E741
        "acronyms": [{"short": a.short, "long": a.long} for a in paper.acronyms],
        "related": [
            {
                "id": r.id,
                "title": r.title,
                "url": f"papers/{r.slug}/",
                "score": r.score,
                "strength": r.strength,
                "strong": r.strong,
                "reasons": list(r.reasons),
            }
            for r in paper.related
        ],
        "mentions": [{"name": m.name, "id": m.id, "title": m.title, "url": f"papers/{m.slug}/"} for m in paper.mentions],
        "mentioned_by": [
            {"name": m.name, "id": m.id, "title": m.title, "url": f"papers/{m.slug}/"} for m in paper.mentioned_by[:MAX_MENTIONED_BY]
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
    return markdown_page(
        "paper.md.j2",
        {"template": "paper.html", **record, "description": paper.summary},
        body=link_names(paper.body, {m.name: f"{m.slug}.md" for m in paper.mentions}),
        mentions=paper.mentions,
        glossary=paper.acronyms,
    )


# The last run's paper pages by everything they are made of, kept under `mkdocs serve`
# (paper_pages_after_edit): an edit then re-renders only the pages whose content changed. One-off
# builds keep none: it would only cost memory (decision 0002).
RenderedPages = dict[tuple[bytes, str], str]


class FileSink(Protocol):
    """Where files go as they are made (a one-off run's runtime.background_writer.Writer)."""

    def __setitem__(self, relative: str, text: str | bytes) -> None: ...

    def update(self, files: dict[str, str]) -> None: ...


Files = dict[str, str | bytes] | FileSink  # where render_site puts the files it makes (papers.json as bytes)


def paper_pages_after_edit(
    last: RenderedPages | None, papers: list[Paper], slugs: dict[str, dict[str, str]], files: Files
) -> tuple[list[bytes], RenderedPages]:
    """The paper pages put in `files` and the papers.json records, as _paper_pages_once makes
    them, from the pages the last run rendered (`last`, None: none) by everything they are made
    of: only pages whose content changed are rendered again. Each record's JSON is remembered by
    the paper object and the slugs paper_record reads (context.reused), not the record itself:
    ~30 objects the cycle collector would walk on every full collection. Also the pages for the
    next run."""
    before = last if last is not None else {}
    tag_slugs = slugs["tags"]

    def record_json(paper: Paper) -> bytes:
        where = (tuple(tag_slugs.get(t) for t in paper.tags), slugs["areas"][paper.area], slugs["collections"][paper.collection])
        return reused("record", paper, where, lambda: _encoded(paper_record(paper, slugs)))

    encoded = [record_json(p) for p in papers]
    keys = [(record, paper.body) for paper, record in zip(papers, encoded)]
    pages: RenderedPages = {}
    for paper, key in zip(papers, keys):
        page = before[key] if key in before else _paper_page((paper, paper_record(paper, slugs)))
        files[f"papers/{paper.slug}.md"] = pages[key] = page
    return encoded, pages


def _paper_pages_once(papers: list[Paper], slugs: dict[str, dict[str, str]], files: Files) -> list[bytes]:
    """A one-off run's paper pages, put in `files`, and its papers.json records, in this process
    while the topic map is made on the other core: each record (many objects a paper) is
    dropped once its page and JSON are made. Rendering in forked workers as well cost more CPU
    (copy-on-write faults, the pages sent back) and no less wall time (decision 0007)."""
    encoded = []
    for paper in papers:
        record = paper_record(paper, slugs)
        files[f"papers/{paper.slug}.md"] = _paper_page((paper, record))
        encoded.append(_encoded(record))
    return encoded


@dataclass(frozen=True)
class _Groups:
    """How the site groups the papers, as its pages list them."""

    by_area: dict[str, list[Paper]]
    area_names: list[str]  # most papers first
    tag_pages: dict[str, list[Paper]]
    by_collection: dict[str, list[Paper]]
    collection_names: list[str]
    slugs: dict[str, dict[str, str]]  # section -> group name -> page name
    tag_counts: dict[str, Counter[str]]
    areas: list[Group]  # as the home and map pages show them: most papers first


def _groups(papers: list[Paper]) -> _Groups:
    tag_pages, by_area, by_collection = _tag_pages(papers), _members(papers, lambda p: p.area), _members(papers, lambda p: p.collection)
    slugs = {"tags": page_slugs(tag_pages), "areas": page_slugs(by_area), "collections": page_slugs(by_collection)}
    area_names = area_order(papers)
    areas = [Group(n, slugs["areas"][n], len(by_area[n])) for n in area_names]
    return _Groups(by_area, area_names, tag_pages, by_collection, sorted(by_collection), slugs, _tag_counts(by_collection), areas)


def render_site(
    papers: list[Paper],
    glossary: list[GlossaryEntry],
    site_title: str,
    updated: Mapping[str, str] | None = None,
    site_url: str | None = None,
    files: Files | None = None,
    listed: bool = False,
) -> Files:
    """All generated files, keyed by path relative to the docs folder, put in `files` as each
    is made (a new dict by default; a one-off run's Writer writes them meanwhile). `updated`
    dates each collection's feed (abstracts carry no dates; NO_DATE where it names none);
    `site_url` makes their links absolute. Under `mkdocs serve`, paper pages, listing pages,
    feeds and the like whose inputs did not change are the last run's (paper_pages_after_edit,
    context.remembered). `listed`: the listing files (see listing_files) were made already,
    elsewhere. The topic map's map.json is not among them: explore.mapfile makes it."""
    if files is None:
        files = {}
    groups = _groups(papers)
    slugs, tag_pages, tag_slugs = groups.slugs, groups.tag_pages, groups.slugs["tags"]
    sink = files
    encoded = incremental(
        "paper pages", lambda: _paper_pages_once(papers, slugs, sink), lambda last: paper_pages_after_edit(last, papers, slugs, sink)
    )
    if not listed:
        files.update(listing_files(papers, glossary, updated, site_url, groups))
    in_degree = Counter(r.id for p in papers for r in p.related)
    connected = sorted(papers, key=lambda p: (-(in_degree[p.id] + len(p.mentioned_by)), p.title.casefold()))[:10]
    area_groups = groups.areas
    collection_names = groups.collection_names
    files["index.md"] = markdown_page(
        "home.md.j2",
        {"title": site_title, "hide": ["navigation"]},
        site_title=site_title,
        papers=papers,
        collections=groups.by_collection,
        areas=area_groups,
        area_chart=area_chart(area_groups),
        tag_count=len(tag_pages),
        top_tags=sorted((Group(t, tag_slugs[t], len(m)) for t, m in tag_pages.items()), key=lambda g: (-g.count, g.name.casefold()))[:30],
        glossary_count=len(glossary),
        connected=connected,
        trends=html_block(
            "trend_chart.html.j2",
            rows=_trends(tag_pages, collection_names, groups.by_collection, groups.tag_counts),
            slugs=tag_slugs,
            first=collection_names[0],
            last=collection_names[-1],
        )
        if len(collection_names) > 1
        else "",
    )
    # As json.dumps of the whole with sort_keys (generated_by < papers < version), from the
    # records already encoded: JSON is encoded part by part, so the bytes are the same. Joined
    # as UTF-8 bytes, the form it is written in: one character beyond the BMP (an emoji in one
    # abstract) made the whole text 4 bytes a character, far more to allocate and copy than is
    # written (decision 0002).
    pieces = [f'{{"generated_by":{json.dumps(MARKER, ensure_ascii=False)},"papers":['.encode()]
    for record in encoded:
        pieces += (record, b",")
    if encoded:
        pieces.pop()  # no comma after the last record
    pieces.append(f'],"version":{json.dumps(__version__, ensure_ascii=False)}}}\n'.encode())
    files["papers.json"] = b"".join(pieces)
    return files


def listing_files(
    papers: list[Paper],
    glossary: list[GlossaryEntry],
    updated: Mapping[str, str] | None,
    site_url: str | None,
    groups: _Groups | None = None,
) -> dict[str, str]:
    """The files that list papers without their related papers: tag, area and collection
    pages and their overviews, feeds, the glossary, the map and browse pages, browse.json.
    Linking changes nothing they show once titles are unique (a one-off run makes them in
    another process while related papers are found: generator.runtime.background_writer.Writer.elsewhere).
    Under `mkdocs serve`, each file is the last run's where its key, which holds everything its
    template reads, is the same (context.remembered)."""
    files: dict[str, str] = {}
    groups = _groups(papers) if groups is None else groups
    slugs, tag_pages, tag_slugs = groups.slugs, groups.tag_pages, groups.slugs["tags"]
    by_area, by_collection, collection_names, tag_counts = groups.by_area, groups.by_collection, groups.collection_names, groups.tag_counts
    # _related_tags reads only which papers (by id) each tag page holds: remembered by that (decision 0002).
    membership = tuple((tag, tuple(p.id for p in members)) for tag, members in tag_pages.items())
    related_tags = remembered("renders", ("related tags", len(papers), membership), lambda: _related_tags(tag_pages, len(papers)))
    area_share = _area_share(papers)
    sections = [
        ("tags", tag_pages, lambda t: f"Papers tagged *{escape_markdown(t)}*.", lambda t: lambda p: centrality(p, t)),
        ("areas", by_area, lambda a: "Papers whose main topic is this area.", lambda a: lambda p: -area_share(p, a)),
        ("collections", by_collection, lambda c: f"Papers in this collection ([Atom feed](../feeds/{slugs['collections'][c]}.xml)).", None),
    ]
    rankings = {
        "tags": "Papers whose authors give this tag come first, then those whose abstracts are most about it.",
        "areas": "Papers most of whose tags belong to this area come first.",
    }
    for folder, members_by_name, intro, rank_by in sections:
        section = SECTIONS[folder]
        for name, members in members_by_name.items():
            order = (
                (lambda p: (p.title.casefold(), p.id))
                if rank_by is None
                else (lambda p, key=rank_by(name): (key(p), p.title.casefold(), p.id))  # noqa: B008
            )
            listed = sorted(members, key=order)
            context = dict(
                heading=name,
                intro=f"{intro(name)} {len(members)} paper{'s' if len(members) != 1 else ''}.",
                ranking=rankings.get(folder),
                related=tuple(Group(t, tag_slugs[t], n) for t, n in related_tags.get(name, [])) if folder == "tags" else (),
                trend=_trend(_tag_shares(name, collection_names, by_collection, tag_counts))
                if folder == "tags" and len(collection_names) > 1
                else "",
            )
            # The key holds every paper field listing.md.j2 reads.
            key = ("listing", name, *context.values(), tuple((p.title, p.slug, p.summary) for p in listed))
            files[f"{folder}/{slugs[folder][name]}.md"] = remembered(
                "renders",
                key,
                lambda: markdown_page("listing.md.j2", {"title": name}, papers=listed, **context),  # noqa: B023
            )
        groups_shown = [Group(n, slugs[folder][n], len(m)) for n, m in members_by_name.items()]
        groups_shown.sort(key=lambda g: (-g.count, g.name.casefold()))
        files[f"{folder}/index.md"] = remembered(
            "renders",
            ("overview", folder, tuple(groups_shown)),
            lambda: markdown_page(
                "overview.md.j2",
                {"title": section.title},  # noqa: B023
                heading=section.title,  # noqa: B023
                intro=f"{section.intro} {len(groups_shown)} {section.title.lower()}.",  # noqa: B023
                label=section.label,  # noqa: B023
                groups=groups_shown,  # noqa: B023
                by_area=_tags_by_area(groups_shown) if folder == "tags" else [],  # noqa: B023
            ),
        )

    for collection, members in by_collection.items():
        slug = slugs["collections"][collection]
        # The keys hold every paper field feed_entry.xml.j2 reads.
        fields = [(p.title, p.id, p.slug, p.summary, p.tags, p.authors) for p in members]
        dated = (updated or {}).get(collection, NO_DATE)
        files[f"feeds/{slug}.xml"] = remembered(
            "renders",
            ("feed", collection, slug, dated, site_url, tuple(fields)),
            partial(_feed_remembering_entries, collection, slug, members, fields, dated, site_url),
        )

    by_id = {p.id: p for p in papers}
    entries: list[dict[str, Any]] = [{"short": e.short, "long": e.long, "papers": [by_id[i] for i in e.papers]} for e in glossary]
    # The key holds every field glossary.md.j2 reads: of each entry's papers, the first five's titles and slugs.
    shown = tuple((e["short"], e["long"], len(e["papers"]), tuple((p.title, p.slug) for p in e["papers"][:5])) for e in entries)
    files["glossary.md"] = remembered(
        "renders", ("glossary", shown), lambda: markdown_page("glossary.md.j2", {"title": "Glossary"}, entries=entries)
    )
    files["map.md"] = markdown_page(
        "map.md.j2",
        {"title": "Topic map", "hide": ["toc"]},
        map_html=html_block("topic_map.html.j2", areas=groups.areas, count=len(papers)),
    )
    # Filed once for the authors section and browse.json; the keys hold every paper field each reads.
    everyone = remembered("renders", ("authors filed", tuple(p.authors for p in papers)), lambda: authors(papers))
    shown_authors = tuple((p.title, p.slug, p.summary, p.authors) for p in papers)
    files.update(remembered("renders", ("authors", shown_authors), lambda: author_files(papers, everyone)))
    files["browse.md"] = markdown_page(
        "browse.md.j2", {"title": "Browse", "hide": ["toc"]}, count=len(papers), authors=any(p.authors for p in papers)
    )
    files["browse.json"] = json_text(
        browse_data(papers, groups.area_names, sorted(tag_pages, key=str.casefold), collection_names, everyone)
    )
    files["reading-list.md"] = markdown_page(
        "reading_list.md.j2",
        {"title": "Reading list", "hide": ["toc"], "description": "The papers you saved, kept in this browser: export or share them."},
    )
    return files


def _feed_remembering_entries(
    collection: str, slug: str, members: list[Paper], fields: list[tuple], dated: str, site_url: str | None
) -> str:
    """feed(...), each entry remembered under `mkdocs serve` by `fields` (every paper field
    feed_entry.xml.j2 reads): an edit renders one entry again, not the whole feed's."""
    entries = [remembered("renders", ("feed entry", collection, *f), partial(feed_entry, collection, p)) for p, f in zip(members, fields)]
    return feed(collection, slug, members, dated, site_url, entries)


def _encoded(record: dict) -> bytes:
    """A record as papers.json holds it, in UTF-8."""
    return json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def _members(papers: list[Paper], key) -> dict[str, list[Paper]]:
    groups: dict[str, list[Paper]] = defaultdict(list)
    for paper in papers:
        groups[key(paper)].append(paper)
    return dict(groups)


def _related_tags(tag_pages: dict[str, list[Paper]], n: int) -> dict[str, list[tuple[str, int]]]:
    """Each tag's tags that co-occur most by lift (how much likelier together than by chance),
    among those sharing at least MIN_SHARED_PAPERS papers."""
    together: Counter[tuple[str, str]] = Counter()
    papers_tags: dict[str, set[str]] = defaultdict(set)
    for tag, members in tag_pages.items():
        for paper in members:
            papers_tags[paper.id].add(tag)
    for tags in papers_tags.values():
        for a in tags:
            for b in tags:
                if a != b:
                    together[a, b] += 1
    related: dict[str, list[tuple[float, str, int]]] = defaultdict(list)
    for (a, b), shared in together.items():
        if shared >= MIN_SHARED_PAPERS:
            related[a].append((shared * n / (len(tag_pages[a]) * len(tag_pages[b])), b, shared))
    return {a: [(b, shared) for _, b, shared in sorted(rows, key=lambda r: (-r[0], r[1]))[:RELATED_TAGS]] for a, rows in related.items()}


def _area_share(papers: list[Paper]):
    """How central an area is to a paper: the share of its tags that the vocabulary files
    under that area (a paper whose tags all belong to the area is most about it)."""
    vocab = vocabulary()
    names = {area.slug: area.name for area in vocab.areas}
    tag_area = {tag: names.get(area, area) for tag, area in vocab.tag_area.items()}

    def share(paper: Paper, area: str) -> float:
        return sum(tag_area.get(t) == area for t in paper.tags) / max(len(paper.tags), 1)

    return share


def _tags_by_area(groups: list[Group]) -> list[tuple[str, list[Group]]]:
    """The tag index's sections: tags under the area the vocabulary files them in."""
    vocab = vocabulary()
    names = {area.slug: area.name for area in vocab.areas}
    sections: dict[str, list[Group]] = defaultdict(list)
    for group in groups:
        area = vocab.tag_area.get(group.name)
        sections[names.get(area, area) if area else "Other tags"].append(group)
    order = [a.name for a in vocab.areas] + ["Other tags"]
    return sorted(sections.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))


@dataclass(frozen=True)
class Share:
    label: str
    first: float  # percent of the first collection's papers
    last: float  # percent of the last collection's


def _trend(rows: list[tuple[str, float]]) -> str:
    return remembered("renders", ("tag shares", tuple(rows)), lambda: html_block("tag_shares.html.j2", rows=rows))


def _tag_counts(by_collection: dict[str, list[Paper]]) -> dict[str, Counter[str]]:
    """Per collection, how many of its papers carry each tag: counted once for all tag pages
    (counting per tag page was slow: decision 0007)."""
    return {c: Counter(tag for p in members for tag in dict.fromkeys(p.tags)) for c, members in by_collection.items()}


def _tag_shares(
    tag: str, collections: list[str], by_collection: dict[str, list[Paper]], tag_counts: dict[str, Counter[str]]
) -> list[tuple[str, float]]:
    """The percentage of each collection's papers that carry the tag."""
    return [(c, 100 * tag_counts[c][tag] / len(by_collection[c])) for c in collections]


def _trends(
    tag_pages: dict[str, list[Paper]], collections: list[str], by_collection: dict[str, list[Paper]], tag_counts: dict[str, Counter[str]]
) -> list[Share]:
    """The tags whose share of papers grew and shrank most from the first collection to the last."""
    rows = []
    for tag in tag_pages:
        (_, first), (_, last) = _tag_shares(tag, [collections[0], collections[-1]], by_collection, tag_counts)
        rows.append(Share(tag, first, last))
    rows.sort(key=lambda r: (r.first - r.last, r.label))
    grew = [r for r in rows[:TRENDS] if r.last > r.first]
    shrank = [r for r in rows[::-1][:TRENDS] if r.first > r.last]
    return grew + shrank
