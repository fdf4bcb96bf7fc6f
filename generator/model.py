"""The objects that flow through the pipeline: Record (read) -> Paper (enriched, linked)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields


@dataclass(frozen=True)
class Origin:
    """Where a record came from, so every message and page can point back to it."""

    file: str  # path as given on the command line (or relative to the config)
    record: int  # 1-based record number within the file (paragraph, row, object)
    line: int  # 1-based line where the record starts
    record_id: str | None = None  # the record's own id when the input gave one

    def where(self) -> str:
        # A record's line is 0 when it is not known (JSON laid out unusually): its number instead.
        return f"{self.file}:{self.line}" if self.line else f"{self.file}: record {self.record}"


@dataclass(frozen=True)
class Record:
    """One abstract as read from an input file, before any derivation."""

    abstract: str
    origin: Origin
    collection: str
    title: str | None = None
    keywords: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    url: str | None = None
    primary_area: str | None = None
    tldr: str | None = None


@dataclass(frozen=True)
class Link:
    kind: str  # code | model | dataset | project | paper
    label: str
    url: str


@dataclass(frozen=True)
class Acronym:
    short: str
    long: str


@dataclass(frozen=True)
class Related:
    id: str
    title: str
    slug: str
    score: float  # the word cosine of the two papers
    reasons: tuple[str, ...]
    strength: float = 0.0  # the ranking the list is ordered by (generator.link.related.similar)
    strong: bool = True  # at or above the fitted floor: shown as related; else "also near", apart


@dataclass(frozen=True)
class Mention:
    """A name introduced by another paper that this paper's abstract uses."""

    name: str
    id: str
    slug: str
    title: str


# An abstract's noun-phrase candidates (enrich.tagging.candidate_phrases): (normalised key, first
# spelling, occurrences), in text order.
CandidatePhrases = tuple[tuple[str, str, int], ...]


@dataclass(frozen=True)
class TagChoice:
    """What choosing a paper's tags and key phrases worked from and set aside; the page shows
    `Paper.tags` and `Paper.keyphrases`. Filled by enrich (given, scores, candidates, hidden,
    as_phrases) and changed by the link passes (enrich.tags.drop_dominant_tags hides the field's
    tag, link.corpus orders the key phrases to fill up from, link.aboutness shows tags the paper
    is not about as phrases, enrich.tags.grouping_tags keeps what was derived). Issues 33 and 54."""

    # Tags from the input's keywords, kept whatever their spread.
    given: tuple[str, ...] = ()
    # Every vocabulary tag the abstract mentions, with how likely it is an author keyword
    # (`tagevidence`), kept or not: (tag, probability), by tag.
    scores: tuple[tuple[str, float], ...] = ()
    # Key-phrase candidates: (normalised key, first spelling, occurrences), in text order.
    candidates: CandidatePhrases = ()
    # Derived terms the page does not show, though they still find related papers: one-word tags
    # named once ('evaluation': enrich.tags.in_passing), tags named only by an acronym defined
    # otherwise (enrich.tags.tags_of_acronyms_defined_otherwise), a tag naming the collection's field where the paper is not
    # about it (enrich.tags.drop_dominant_tags, field_tags), and the keys of candidate phrases that
    # stop inside a term ('deep reinforcement': enrich.tagging.cut_phrases). Issue 33.
    hidden: tuple[str, ...] = ()
    # Derived tags of more words the abstract names once, with weak evidence, that the title does
    # not name ('in-context learning' on a paper that prompts in context: enrich.tags.named_once),
    # and tags the paper's meaning is far from (link.aboutness): the page shows them among the key
    # phrases, not as tags; related papers still find them as tags. Decisions 0017, 0031.
    as_phrases: tuple[str, ...] = ()
    # The keys of key phrases a paper short of tags is filled up from, best first
    # (enrich.tags.fill_order, set where key phrases are scored; empty when it has its tags).
    fill_order: tuple[str, ...] = ()
    # The paper's (tags, key phrases) as derived, kept when enrich.tags.grouping_tags changes what
    # its page shows: related papers and their reasons are found by these (enrich.tags.derived_terms).
    derived: tuple[tuple[str, ...], tuple[str, ...]] | None = None


@dataclass(frozen=True)
class Paper:
    id: str
    slug: str
    title: str
    summary: str
    name: str | None  # the method/model/benchmark name the paper introduces
    tags: tuple[str, ...]
    keyphrases: tuple[str, ...]
    area: str
    links: tuple[Link, ...]
    acronyms: tuple[Acronym, ...]
    abstract: str  # the abstract as given in the input
    body: str  # the abstract as safe Markdown
    text: str  # the abstract as plain text (LaTeX macros resolved), for search and vectors
    collection: str
    origin: Origin
    also_in: tuple[Origin, ...] = ()  # other places the same abstract appeared (merged duplicates)
    authors: tuple[str, ...] = ()
    url: str | None = None
    given_title: bool = False
    related: tuple[Related, ...] = ()
    mentions: tuple[Mention, ...] = ()
    mentioned_by: tuple[Mention, ...] = ()
    tag_choice: TagChoice = field(default=TagChoice(), repr=False)


_PAPER_FIELDS = frozenset(f.name for f in fields(Paper))


def paper_with(paper: Paper, **changes) -> Paper:
    """dataclasses.replace(paper, **changes), faster: a Paper has no __post_init__ and every
    field is set by __init__, so its attributes copied, with the changes, make the paper replace
    would. Linking makes thousands of them in the main process (decision 0007)."""
    unknown = changes.keys() - _PAPER_FIELDS
    if unknown:
        raise TypeError(f"Paper has no field {sorted(unknown)[0]!r}")
    changed = object.__new__(Paper)
    attributes = changed.__dict__  # a frozen dataclass refuses setattr, not its __dict__
    attributes.update(paper.__dict__)
    attributes.update(changes)
    return changed
