"""The data the exploring pages load at view time, built once per site:

- map.json: every paper's place on the topic map (generator.explore.topicmap), area, title, summary
  and page, plus labelled regions at two levels (broad ones shown zoomed out, with finer topics
  where broad ones leave dense parts unnamed; finer ones zoomed in), named from the
  collection's own tags and key phrases;
- browse.json: a compact index for the browse page (areas, tags, collections, authors by number;
  each paper as title, page and those numbers), far smaller than papers.json.

Pages load these with fetch, so each page's HTML stays the same size whatever the number of
papers. Values are plain JSON strings; the scripts show them with textContent only.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import numpy as np

from generator.explore.authors import Author
from generator.explore.topics import topic_vectors
from generator.model import Paper

# Regions: about one broad region per 150 papers (6 to 30, then mixed ones split) and one finer
# topic per 50 (12 to 90); on a small site, at least 8 papers per broad region and 5 per finer
# one, so that a region has papers enough to share a name and zooming in shows more names.
BROAD = (150, 6, 30, 8)
FINE = (50, 12, 90, 5)
KMEANS_STEPS = 30
LABEL_FLOOR = 0.1  # a label names at least this share of its region's papers
LABEL_WORDS = 4  # longer terms (IJCAI's area names as keywords) are not labels
SECOND_TERM_SHARE = 0.5
# A broad region whose best term names under 40% of its papers holds several topics: a large
# one is split in two (parts of at least 60), and a part of 60 or more still that mixed stays
# unnamed (its papers keep their places and colours) rather than carry a word most of them
# lack. Smaller regions (a small site's) keep the best name their few papers share.
COHERENT, MIN_SPLIT = 0.4, 60
FEWEST_NAMED = 6
DENSE_RADIUS = 0.04  # of the map's width: where a label's papers lie thickest
FILL_DISTANCE = 0.12  # of the map's width: a finer topic this far from every broad label names its patch at first view
GRID = 10000  # positions are sent as whole numbers on a GRID x GRID grid
_WORD = re.compile(r"[a-z0-9]+")
# Words that name no topic alone: a term of these only ('deep neural networks', 'applications')
# fits any region of the field, and two terms sharing only these are not the same topic.
_LOOSE = frozenset(
    {"learning", "model", "models", "network", "networks", "neural", "deep", "and", "of", "for", "the", "applications", "general"}
)


def _region_count(n: int, per: int, low: int, high: int, smallest: int) -> int:
    return max(1, min(high, max(low, round(n / per)), n // smallest))


def _kmeans(points: np.ndarray, k: int) -> np.ndarray:
    """Which of k regions each point falls in (Lloyd's algorithm from k-means++ seeds drawn
    with a fixed seed: the same papers make the same regions)."""
    rng = np.random.default_rng(0)
    centres: list[np.ndarray] | np.ndarray  # a list, then one array
    centres = [points[rng.integers(len(points))]]
    nearest = ((points - centres[0]) ** 2).sum(axis=1)
    for _ in range(1, k):
        centre = points[rng.choice(len(points), p=nearest / nearest.sum())] if nearest.sum() > 0 else points[rng.integers(len(points))]
        centres.append(centre)
        nearest = np.minimum(nearest, ((points - centre) ** 2).sum(axis=1))
    centres = np.array(centres, dtype=float)
    assignment = np.zeros(len(points), dtype=int)
    for _ in range(KMEANS_STEPS):
        distances = (points**2).sum(axis=1)[:, None] - 2 * points @ centres.T + (centres**2).sum(axis=1)[None, :]
        assignment = distances.argmin(axis=1)
        sizes = np.bincount(assignment, minlength=k)
        sums = np.stack([np.bincount(assignment, weights=column, minlength=k) for column in points.T], axis=1)
        centres[sizes > 0] = sums[sizes > 0] / sizes[sizes > 0, None]  # an emptied centre stays where it was
    return assignment


def _terms(paper: Paper) -> set[str]:
    return {*paper.tags, *paper.keyphrases}


def _ranked_terms(terms: list[set[str]], members: np.ndarray, document_frequency: Counter) -> tuple[list[str], Counter]:
    """The region's terms, most particular first (class TF-IDF: share in the region times
    rarity in the collection), with their counts in the region."""
    counts = Counter(term for i in members for term in terms[i])
    # A label must describe a good part of the region, not one paper's phrase.
    floor = max(2, math.ceil(LABEL_FLOOR * len(members)))
    n = len(terms)
    scored = sorted(
        (-(count / len(members)) * math.log(n / document_frequency[term]), term)
        for term, count in counts.items()
        if count >= floor and len(term.split()) <= LABEL_WORDS and _stems(term)
    )
    return [term for _, term in scored], counts


def _stems(term: str) -> set[str]:
    return {word[:5] for word in _WORD.findall(term.casefold()) if word not in _LOOSE}


def _same_topic(first: str, second: str, terms: list[set[str]], members: np.ndarray, counts: Counter) -> bool:
    """Whether `second` may join `first` in a label: a different word (not 'robotics ·
    robotic manipulation'), nearly as common in the region, and on the same papers (at least
    half of the rarer one's), so that the pair names one topic rather than two neighbours."""
    if _stems(first) & _stems(second) or first.casefold() in second.casefold() or second.casefold() in first.casefold():
        return False
    both = sum(1 for i in members if first in terms[i] and second in terms[i])
    return counts[second] >= SECOND_TERM_SHARE * counts[first] and both >= SECOND_TERM_SHARE * min(counts[first], counts[second])


def _label(
    terms: list[set[str]], members: np.ndarray, document_frequency: Counter, words: int, taken: set[str], least: int = 0
) -> str | None:
    """The region's most particular term (of those on at least `least` of its papers), with a
    second on the same papers when there is one; when a larger region has the name, the pair
    tells them apart, else the next term names it."""
    ranked, counts = _ranked_terms(terms, members, document_frequency)
    for first in [term for term in ranked if counts[term] >= least][:8]:
        pairs = [
            f"{first} · {second}"
            for second in ranked[:12]
            if words > 1 and second != first and _same_topic(first, second, terms, members, counts)
        ]
        for label in [*pairs[:1], first] if first not in taken else pairs:
            if label not in taken:
                return label
    return None


def _densest(points: np.ndarray) -> np.ndarray:
    """The middle of where the points lie thickest: the median of the fifth of them with the
    most others within DENSE_RADIUS (a region's median can fall in a gap between its parts)."""
    near = (((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2) < DENSE_RADIUS**2).sum(axis=1)
    return np.median(points[np.argsort(-near, kind="stable")[: max(3, len(points) // 5)]], axis=0)


def _groups(terms: list[set[str]], features: np.ndarray, k: int, document_frequency: Counter) -> list[np.ndarray]:
    """k groups of papers by k-means on `features`; a large group whose best term names fewer
    than COHERENT of its papers holds several topics, and is split in two."""
    assignment = _kmeans(features, k)
    groups = []
    for members in (np.flatnonzero(assignment == c) for c in range(k)):
        if len(members) < 2 * MIN_SPLIT:
            groups.append(members)
            continue
        ranked, counts = _ranked_terms(terms, members, document_frequency)
        if len(members) >= 2 * MIN_SPLIT and (not ranked or counts[ranked[0]] < COHERENT * len(members)):
            halves = _kmeans(features[members], 2)
            if min(np.bincount(halves, minlength=2)) >= MIN_SPLIT:
                groups += [members[halves == 0], members[halves == 1]]
                continue
        groups.append(members)
    return sorted(groups, key=lambda m: -len(m))


def named_regions(
    terms: list[set[str]], features: np.ndarray, k: int, document_frequency: Counter, *, broad: bool
) -> list[tuple[str, np.ndarray]]:
    """The regions that earn a name, as (label, members), larger first; no two of a level share
    a name. A broad region of MIN_SPLIT papers or more is named by a term on at least COHERENT
    of them, or stays unnamed; but while fewer than FEWEST_NAMED are named, the larger unnamed
    ones take their best term after all (a map with a name or two reads as empty)."""
    groups = [members for members in _groups(terms, features, k, document_frequency) if len(members) >= 3]
    named: dict[int, str] = {}
    taken: set[str] = set()
    for loose in (False, True):
        for index, members in enumerate(groups):
            if index in named or (loose and len(named) >= FEWEST_NAMED):
                continue
            least = math.ceil(COHERENT * len(members)) if broad and not loose and len(members) >= MIN_SPLIT else 0
            label = _label(terms, members, document_frequency, 2 if broad else 1, taken, least)
            if label is not None:
                taken.add(label)
                named[index] = label
    return [(named[index], groups[index]) for index in sorted(named)]


def _regions(
    terms: list[set[str]], points: np.ndarray, features: np.ndarray, k: int, document_frequency: Counter, *, broad: bool
) -> tuple[list[dict], list[float]]:
    """Named regions with the place of their label, and the share of each region's papers its
    first term names. A broad region (grouped by topic, spread over the map) is labelled where
    the papers that carry its first term lie thickest, so the words sit on the papers they name;
    a finer one (a patch of the map) at its middle, so that zoomed in the labels are spread as
    the patches are (18 labels in view instead of 14 at 4,242 papers)."""
    regions, shares = [], []
    for label, members in named_regions(terms, features, k, document_frequency, broad=broad):
        first = label.split(" · ")[0]
        carrying = [i for i in members if first in terms[i]]
        spot = _densest(points[carrying]) if broad else np.median(points[members], axis=0)
        regions.append({"label": label, "x": int(spot[0] * GRID), "y": int(spot[1] * GRID), "size": int(len(members))})
        shares.append(len(carrying) / len(members))
    return regions, shares


def first_view(broad: list[dict], fine: list[dict], fine_shares: list[float]) -> list[dict]:
    """The labels of the zoomed-out map: the broad regions, then the finer topics that name
    their patch well (a term on COHERENT of its papers) where no broad label is within
    FILL_DISTANCE and whose name no broad label has, larger first. Broad regions that are
    mixed stay unnamed (named_regions), and without these the papers there had no name at
    first view ('federated learning', 'equivariance' at ICLR 2024; issue 52). The
    map script places them in this order and leaves out a label that would touch one placed."""
    named = {word.casefold() for region in broad for word in region["label"].split(" · ")}
    reach = (FILL_DISTANCE * GRID) ** 2
    filling = [
        region
        for region, share in zip(fine, fine_shares)
        if share >= COHERENT
        and region["label"].split(" · ")[0].casefold() not in named
        and all((region["x"] - b["x"]) ** 2 + (region["y"] - b["y"]) ** 2 > reach for b in broad)
    ]
    return broad + sorted(filling, key=lambda region: -region["size"])


def map_data(papers: list[Paper], points: np.ndarray, areas: list[str], words=None) -> dict:
    """Papers as parallel lists (short keys: the file is fetched by every map view). `words`: see
    topics.topic_vectors."""
    area_index = {name: i for i, name in enumerate(areas)}
    terms = [_terms(p) for p in papers]
    document_frequency = Counter(term for paper_terms in terms for term in paper_terms)
    n = len(papers)
    broad: list[dict] = []
    fine: list[dict] = []
    fine_shares: list[float] = []
    if n >= 8:
        broad, _ = _regions(terms, points, topic_vectors(papers, words=words), _region_count(n, *BROAD), document_frequency, broad=True)
        fine, fine_shares = _regions(terms, points, points, _region_count(n, *FINE), document_frequency, broad=False)
    return {
        "areas": areas,
        "x": [int(x * GRID) for x, _ in points],
        "y": [int(y * GRID) for _, y in points],
        "area": [area_index[p.area] for p in papers],
        "title": [p.title for p in papers],
        "summary": [p.summary for p in papers],
        "slug": [p.slug for p in papers],
        # Broad regions are grouped by topic on the papers' words (generator.explore.topics: k-means on
        # the 2-D positions cut across topics, and on the related-papers graph mixed them), with
        # finer topics where they leave dense parts unnamed (first_view); finer ones by place,
        # so that zoomed in they tile the map.
        "broad": first_view(broad, fine, fine_shares),
        "fine": fine,
    }


def browse_data(papers: list[Paper], areas: list[str], tags: list[str], collections: list[str], everyone: list[Author]) -> dict:
    """Each paper as [title, slug, area, collection, [tags], [authors]] by number into the name
    lists; `everyone` is generator.explore.authors.authors(papers), in the Authors index's order."""
    area_index = {name: i for i, name in enumerate(areas)}
    tag_index = {name: i for i, name in enumerate(tags)}
    collection_index = {name: i for i, name in enumerate(collections)}
    author_names = [author.name for author in everyone]
    author_index = {spelling: i for i, author in enumerate(everyone) for spelling in author.spellings}
    return {
        "areas": areas,
        "tags": tags,
        "collections": collections,
        "authors": author_names,
        "papers": [
            [
                p.title,
                p.slug,
                area_index[p.area],
                collection_index[p.collection],
                [tag_index[t] for t in p.tags if t in tag_index],
                list(dict.fromkeys(author_index[a] for a in p.authors)),
            ]
            for p in papers
        ],
    }
