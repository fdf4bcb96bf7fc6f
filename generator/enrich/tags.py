"""Which tags a paper carries: every rule of tag choice, in the order a run applies them.

1. Per paper (enrich): given keywords first, then the vocabulary tags whose learned evidence
   (generator.enrich.tagevidence) reaches the model's threshold (`derive_tags`). One-word tags
   the abstract names once (`in_passing`) and longer ones named once with weak evidence and not
   named by the title (`named_once`) are marked to be shown as key phrases, not tags.
2. Over the collection (link): a derived tag on too large a share of the papers stays only on
   the papers about it, and a broad one is hidden there too; a tag most abstracts name (the
   collection's field) is hidden where the paper is not about it (`drop_dominant_tags`).
3. Per paper again, once key phrases are scored (link): a paper with fewer than MIN_TAGS tags
   is filled up from its key phrases (`fill_up_tags`), for finding related papers.
4. Where the build has a meaning vector per abstract (link): a derived tag whose name the
   paper's meaning is far from is shown as a key phrase (generator.link.aboutness, decision 0031).
5. Over the collection again (link): what the page shows (`grouping_tags`). Hidden terms go; a
   tag filled up from key phrases shows only while the paper has fewer than MIN_SHOWN_TAGS; a
   tag named once (step 1) and a derived tag that no other paper carries group nothing and
   become key phrases; a paper left short of MIN_SHOWN_TAGS joins the groups its key phrases
   name. Related papers are found by the terms as derived before this step (`derived_terms`).

`link.corpus.link` calls steps 2-5 in this order.

The vocabulary and its matching are generator.enrich.tagging; the figures behind these rules
are decisions 0006, 0014 and 0017-0022.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial

from generator.context import reused
from generator.enrich.tagging import TagMention, Vocabulary, defined_otherwise, normalise_keyword
from generator.language.learned import TagModel
from generator.language.textutil import normalise_term
from generator.model import Acronym, Paper, paper_with

MAX_TAGS = 8
MIN_TAGS = 3


def derive_tags(
    given_keywords: tuple[str, ...], scores: Mapping[str, float], threshold: float, vocab: Vocabulary | None = None
) -> tuple[str, ...]:
    """Given keywords first (normalised by `vocab`), then the vocabulary tags whose evidence
    (`tagevidence.probabilities`) reaches `threshold`, likeliest first, at most MAX_TAGS."""
    tags: list[str] = []
    for keyword in given_keywords:
        tag = normalise_keyword(keyword, vocab)
        if tag and normalise_term(tag) not in {normalise_term(t) for t in tags}:
            tags.append(tag)
    for tag, score in sorted(scores.items(), key=lambda item: (-item[1], item[0])):
        if len(tags) >= MAX_TAGS or score < threshold:
            break
        if tag not in tags:
            tags.append(tag)
    return tuple(tags[:MAX_TAGS])


def one_word(tag: str) -> bool:
    """A broad tag: one word once normalised ('evaluation', 'robotics'; not 'sim-to-real')."""
    return " " not in normalise_term(tag)


def in_passing(
    tags: tuple[str, ...], given_tags: tuple[str, ...], found: Sequence[TagMention], model: TagModel | None = None
) -> tuple[str, ...]:
    """The derived one-word tags ('evaluation', 'sampling', 'robotics') the abstract names at most
    once, by any of their spellings: named in passing, not what the paper is about; the page
    shows them as its last key phrases, not as tags (decisions 0014, 0022). Kept as tags are the
    few that authors give as a keyword, named once, as often as broad tags named more often
    (`TagModel.kept_named_once`, learned: 'RLHF'). Issue 33."""
    return tuple(tag for tag in _named_once(tags, given_tags, found, model or TagModel.shipped()) if one_word(tag))


def named_once(
    tags: tuple[str, ...],
    given_tags: tuple[str, ...],
    found: Sequence[TagMention],
    scores: Mapping[str, float],
    title: str = "",
    model: TagModel | None = None,
) -> tuple[str, ...]:
    """The derived tags of more words the abstract names once ('in-context learning' on a paper
    that prompts in context, 'sim-to-real transfer' on one that mentions a gap), with less evidence
    (`scores`, tagevidence; as Paper.tag_choice.scores rounds it) than the model's `central` probability,
    that the `title` does not name: specific, but no sign the paper is about them. The page shows
    them among its key phrases, not as tags (grouping_tags). Decision 0017."""
    model = model or TagModel.shipped()
    central = model.central
    return tuple(
        tag
        for tag in _named_once(tags, given_tags, found, model)
        if not one_word(tag) and round(scores.get(tag, 0.0), 4) < central and not title_names(tag, title)
    )


def _named_once(tags: tuple[str, ...], given_tags: tuple[str, ...], found: Sequence[TagMention], model: TagModel) -> list[str]:
    named = Counter(mention.tag for mention in found)
    kept = model.kept_named_once
    return [tag for tag in tags if tag not in given_tags and named[tag] <= 1 and tag not in kept]


def tags_of_acronyms_defined_otherwise(
    tags: tuple[str, ...],
    given_tags: tuple[str, ...],
    found: tuple[TagMention, ...],
    acronyms: Sequence[Acronym],
    vocab: Vocabulary | None = None,
) -> tuple[str, ...]:
    """The derived tags the abstract names only by an acronym it defines as something else ('GP'
    for 'General Purpose' is not Gaussian processes; tagging.defined_otherwise). Issue 33."""
    kept = {mention.tag for mention in defined_otherwise(found, [(a.short, a.long) for a in acronyms], vocab)}
    return tuple(tag for tag in tags if tag not in given_tags and tag not in kept and any(m.tag == tag for m in found))


DOMINANT_TAG_SHARE = 0.25  # a derived tag on more papers than this tells readers nothing
DOMINANT_MIN_PAPERS = 50
# In a very large collection a tenth is already too many ('evaluation', 'datasets' at ICLR).
COMMON_TAG_SHARE = 0.10
COMMON_MIN_PAPERS = 1000
# A term more than half the collection's abstracts name is its field ('3D' at 3DV, 'robot' at CoRL).
FIELD_NAMED_SHARE = 0.5


def drop_dominant_tags(papers: list[Paper], model: TagModel | None = None) -> list[Paper]:
    """A derived tag on too many papers of a large collection (robotics at a robotics venue,
    'evaluation' at ICLR) stays only where it is given or the paper is about it: its title
    names it or its evidence (`tagevidence`) reaches the model's `central` probability;
    of those, the likeliest keep it, at most the share a tag may have. Keeping it wherever the
    first sentence names it leaves 'large language models' on 63% of COLM: a tag that no
    longer tells papers apart. A broad one (one word: 'robotics' at CoRL) names the collection's
    field, not a topic in it: kept for related papers, it is hidden from the page (issue 33).
    So is a tag of the field that most abstracts name (`field_tags`: '3D vision' at 3DV) where
    the paper is not about it."""
    n = len(papers)
    if n < DOMINANT_MIN_PAPERS:
        return papers
    share = COMMON_TAG_SHARE if n >= COMMON_MIN_PAPERS else DOMINANT_TAG_SHARE
    counts = Counter(tag for p in papers for tag in p.tags)
    dominant = {tag for tag, count in counts.items() if count > share * n}
    named_by_most = field_tags(papers)
    if not dominant and not named_by_most:
        return papers
    central = (model or TagModel.shipped()).central
    keeping: dict[str, set[int]] = {}
    for tag in dominant:
        about = []
        for i, paper in enumerate(papers):
            if tag in paper.tags and tag not in paper.tag_choice.given and _about(paper, tag, central):
                about.append((not title_names(tag, paper.title), -dict(paper.tag_choice.scores).get(tag, 0.0), i))
        keeping[tag] = {i for _, _, i in sorted(about)[: int(share * n)]}

    def keep(i: int, paper: Paper, tag: str) -> bool:
        return tag not in dominant or tag in paper.tag_choice.given or i in keeping[tag]

    def field(paper: Paper, tag: str) -> bool:
        if tag in paper.tag_choice.given or tag in paper.tag_choice.hidden:
            return False
        return (tag in dominant and one_word(tag)) or (tag in named_by_most and not _about(paper, tag, central))

    result = []
    for i, paper in enumerate(papers):
        if dominant.isdisjoint(paper.tags) and named_by_most.isdisjoint(paper.tags):
            result.append(paper)
            continue
        tags = tuple(t for t in paper.tags if keep(i, paper, t))
        hidden = (*paper.tag_choice.hidden, *(t for t in tags if field(paper, t)))
        result.append(_without_dominant(paper, tags, hidden))
    return result


def field_tags(papers: Sequence[Paper]) -> set[str]:
    """The vocabulary tags more than FIELD_NAMED_SHARE of the abstracts name (Paper.tag_choice.scores
    holds every tag an abstract names): the collection's field ('3D vision' at 3DV, named by 72%
    of its abstracts, tagged on 13%). A reader of a 3DV site gains nothing from a '3D vision'
    page of the papers that happen to say "3D" most; where a paper is about the field itself
    (its title names it, or strong evidence), the tag stays."""
    named = Counter(tag for paper in papers for tag, _ in paper.tag_choice.scores)
    return {tag for tag, count in named.items() if count > FIELD_NAMED_SHARE * len(papers)}


def _about(paper: Paper, tag: str, central: float) -> bool:
    """The paper is about the tag: its title names it, or its evidence reaches `central`."""
    return title_names(tag, paper.title) or dict(paper.tag_choice.scores).get(tag, 0.0) >= central


def title_names(tag: str, title: str) -> bool:
    """The paper is about the tag, not only mentioning it: its title says so."""
    return f" {normalise_term(tag)} " in f" {normalise_term(title)} "


def _without_dominant(paper: Paper, tags: tuple[str, ...], hidden: tuple[str, ...]) -> Paper:
    # Under serve, the last run's object for the same paper object and tags (context.reused).
    changes = {"tags": tags, "tag_choice": replace(paper.tag_choice, hidden=hidden)}
    return reused("dominant", paper, changes, lambda: paper_with(paper, **changes))


def fill_order(chosen: Sequence[str], scored: Sequence[str], document_frequency: Counter[str]) -> tuple[str, ...]:
    """The keys (normalised) a paper short of tags is filled up from, best first: its chosen key
    phrases that recur in other papers, then its other chosen ones, then any other it scored
    (`scored`, best first). Worked out where key phrases are scored, which alone knows the counts
    (link.corpus); `fill_up_tags` uses it."""
    order = [k for k in chosen if document_frequency[k] >= 2]
    order += [k for k in chosen if k not in order] + [k for k in scored if k not in chosen]
    return tuple(order)


def fill_up_tags(papers: list[Paper]) -> list[Paper]:
    """Step 3: each paper with fewer than MIN_TAGS tags filled up from its key phrases
    (Paper.tag_choice.fill_order, `filled_up`)."""
    return [_filled(paper) if paper.tag_choice.fill_order and len(paper.tags) < MIN_TAGS else paper for paper in papers]


def _filled(paper: Paper) -> Paper:
    display = {key: spelling for key, spelling, _ in paper.tag_choice.candidates}
    tags = filled_up(paper.tags, paper.tag_choice.fill_order, display)
    if tags == paper.tags:
        return paper
    # Under serve, the last run's object for the same paper object and tags (context.reused).
    return reused("filled", paper, {"tags": tags}, lambda: paper_with(paper, tags=tags))


def filled_up(tags: tuple[str, ...], order: Sequence[str], display: Mapping[str, str]) -> tuple[str, ...]:
    """`tags` filled up to MIN_TAGS from key phrases in `order` (normalised keys, best first:
    `fill_order`; `display`: each as written); a phrase overlapping a tag is skipped."""
    result = list(tags)
    for key in order:
        if len(result) >= MIN_TAGS:
            break
        if not any(key in normalise_term(t) or normalise_term(t) in key for t in result):
            phrase = display[key]
            result.append(phrase.lower() if phrase.islower() else phrase)
    return tuple(result[:MAX_TAGS])


MIN_TAG_PAPERS = 2  # a derived tag on fewer papers groups nothing: it is a key phrase instead
# A page shows a tag its key phrases gave (filled_up, or a group joined) only while it has fewer
# tags than this: two right tags rather than three with a weak one (issue 33).
MIN_SHOWN_TAGS = 2


def grouping_tags(papers: list[Paper], max_keyphrases: int = 6, model: TagModel | None = None) -> list[Paper]:
    """The tags and key phrases a reader sees; each tag groups papers that are about it (issue 33).
    - Hidden terms (Paper.tag_choice.hidden: phrases cut inside a term, the field's tag) are not shown.
    - Tags the abstract names once (Paper.tag_choice.as_phrases) are shown as key phrases and take no
      tag's place: those of more words first, one-word ones ('evaluation') after the paper's
      `max_keyphrases` key phrases (they are in the abstract; authors give them as keywords
      about as often as the key phrases shown; decision 0022).
    - A tag filled up from the key phrases (no evidence of its own: `evidenced`) is shown only
      while the paper has fewer than MIN_SHOWN_TAGS tags; past that it stays a key phrase. One
      that authors almost never give as a keyword (TagModel.generic_phrases: 'deep neural
      networks', 'natural language') is never shown as a tag, and no paper joins its group.
    - Spellings of one term (singular and plural, hyphens, capitals) become the one most papers use.
    - A derived tag carried by fewer than MIN_TAG_PAPERS papers groups nothing: it becomes one of
      the paper's key phrases (first, as the likeliest; at most `max_keyphrases`). Given keywords
      stay tags whatever their spread.
    - A paper left with fewer than MIN_SHOWN_TAGS tags takes, from its key phrases in order, those
      that are another paper's tag: it joins groups that exist and makes no new lone tag (never
      one its abstract names once). Two right tags rather than three with one wrong.
    Related papers and their reasons are still found by the terms as derived (derived_terms)."""
    model = model or TagModel.shipped()
    threshold, generic = model.threshold, model.generic_phrases
    shown = _one_spelling([shown_terms(paper.tags, paper) for paper in papers])
    once = [{normalise_term(tag) for tag in paper.tag_choice.as_phrases} for paper in papers]
    given = [{normalise_term(tag) for tag in paper.tag_choice.given} for paper in papers]
    # Which tags group before the cap, then the cap on what groups, then what still groups.
    counts = _group_counts(shown, once)
    capped = [
        _weak_capped([t for t in tags if _grouping(t, given_keys, once_keys, counts)], paper, threshold, generic)
        for paper, tags, given_keys, once_keys in zip(papers, shown, given, once)
    ]
    counts = _group_counts(capped, once)
    groups = {normalise_term(tag): tag for tag, count in counts.items() if count >= MIN_TAG_PAPERS}
    result = []
    for paper, every, kept_tags, once_keys, given_keys in zip(papers, shown, capped, once, given):
        tags = [tag for tag in kept_tags if _grouping(tag, given_keys, once_keys, counts)]
        phrases = shown_terms(paper.keyphrases, paper)
        if tuple(tags) == paper.tags and len(phrases) == len(paper.keyphrases) and len(tags) >= MIN_SHOWN_TAGS:
            result.append(paper)
            continue
        keys = {normalise_term(tag) for tag in tags}
        for phrase in phrases:
            if len(tags) >= MIN_SHOWN_TAGS:
                break
            key = normalise_term(phrase)
            if key in groups and key not in once_keys | generic and not any(key in other or other in key for other in keys):
                tags.append(groups[key])
                keys.add(key)
        # One-word tags named once (in_passing) go after the key phrases; the rest before them.
        passing = [tag for tag in every if one_word(tag) and normalise_term(tag) in once_keys]
        for tag in reversed([tag for tag in every if normalise_term(tag) not in keys and tag not in passing]):
            if not _among(tag, phrases):
                phrases.insert(0, tag)
        phrases = phrases[:max_keyphrases]
        phrases += [tag for tag in passing if not _among(tag, phrases)]
        changes = {"tags": tuple(tags), "keyphrases": tuple(phrases), "tag_choice": replace(paper.tag_choice, derived=derived_terms(paper))}
        if changes["tags"] == paper.tags and changes["keyphrases"] == paper.keyphrases:
            result.append(paper)
            continue
        result.append(reused("grouping", paper, changes, partial(paper_with, paper, **changes)))
    return result


def _grouping(tag: str, given_keys: set[str], once_keys: set[str], counts: Counter[str]) -> bool:
    """The paper shows `tag` as a tag: its authors give it, or it groups papers and this page
    does not show it as a key phrase (named once). A tag shown as a key phrase takes no tag's
    place (`_weak_capped` counts only tags that are shown)."""
    key = normalise_term(tag)
    return key in given_keys or (counts[tag] >= MIN_TAG_PAPERS and key not in once_keys)


def _among(term: str, phrases: list[str]) -> bool:
    """`term` is one of `phrases`, in any spelling (normalise_term)."""
    key = normalise_term(term)
    return any(key == normalise_term(phrase) for phrase in phrases)


def _one_spelling(shown: list[list[str]]) -> list[list[str]]:
    """Each term in the spelling most papers use (singular or plural, hyphens, capitals)."""
    spellings = Counter(tag for tags in shown for tag in dict.fromkeys(tags))
    canonical: dict[str, str] = {}  # a term's key -> the spelling most papers carry
    for tag, _ in sorted(spellings.items(), key=lambda item: (-item[1], item[0])):
        canonical.setdefault(normalise_term(tag), tag)
    return [list(dict.fromkeys(canonical[normalise_term(tag)] for tag in tags)) for tags in shown]


def _group_counts(shown: list[list[str]], once: list[set[str]]) -> Counter[str]:
    """How many papers each tag would group: tags shown as key phrases (named once) count none."""
    return Counter(tag for tags, once_keys in zip(shown, once) for tag in tags if normalise_term(tag) not in once_keys)


def evidenced(paper: Paper, tag: str, threshold: float) -> bool:
    """The tag has evidence of its own: given, or its vocabulary evidence (Paper.tag_choice.scores)
    reaches the model's `threshold` (derive_tags). Else it was filled up from a key phrase."""
    return tag in paper.tag_choice.given or dict(paper.tag_choice.scores).get(tag, 0.0) >= threshold


def _weak_capped(tags: list[str], paper: Paper, threshold: float, generic: frozenset[str] = frozenset()) -> list[str]:
    """`tags` but those filled up from key phrases once MIN_SHOWN_TAGS tags are ahead of them,
    and those filled up from a `generic` phrase (TagModel.generic_phrases) wherever they are."""
    result: list[str] = []
    for tag in tags:
        if evidenced(paper, tag, threshold) or (len(result) < MIN_SHOWN_TAGS and normalise_term(tag) not in generic):
            result.append(tag)
    return result


def centrality(paper: Paper, tag: str) -> tuple[int, float, int]:
    """How central `tag` is to `paper`, smallest first: a keyword its authors give, then the
    evidence that the abstract is about it (`tagevidence`, the tag's probability of being an
    author keyword), then where it stands among the paper's tags (a tag page ranks by this)."""
    given = 0 if tag in paper.tag_choice.given else 1
    evidence = dict(paper.tag_choice.scores).get(tag, 0.0)
    return given, -evidence, paper.tags.index(tag) if tag in paper.tags else len(paper.tags)


def shown_terms(terms: tuple[str, ...], paper: Paper) -> list[str]:
    """The terms (tags or key phrases) but the paper's hidden ones (Paper.tag_choice.hidden)."""
    if not paper.tag_choice.hidden:
        return list(terms)
    hidden = set(paper.tag_choice.hidden)
    return [term for term in terms if term not in hidden and normalise_term(term) not in hidden]


def derived_terms(paper: Paper) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The paper's tags and key phrases as derived, before grouping_tags changed what its page
    shows: what related papers and their reasons are found by, so that grouping changes what a
    reader browses, not what is related (issue 33)."""
    return paper.tag_choice.derived if paper.tag_choice.derived is not None else (paper.tags, paper.keyphrases)


def similarity_terms(paper: Paper) -> tuple[str, ...]:
    """What a paper's similarity document adds to its abstract (link.corpus.document): its tags
    twice, so that shared topics weigh more than shared words, and its key phrases, as derived."""
    tags, keyphrases = derived_terms(paper)
    return (*tags, *tags, *keyphrases)
