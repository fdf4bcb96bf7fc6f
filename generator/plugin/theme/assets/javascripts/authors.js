// The authors section (generator/render/authors.py):
// - the author page, authors/author/?name=…: one page for every author, filled from the JSON of
//   the letter they are filed under (authors/<letter>.json): their papers and their co-authors;
// - the Authors index's filter box: hides the names on the page that do not contain what is
//   typed; on a large site, whose letters have pages of their own, it also lists matching
//   authors of every letter from names.json.
// Names, titles and summaries come from input: set with textContent only. document$ re-runs
// this after every instant-navigation page change.
(() => {
  const SUFFIXES = new Set(["jr", "jr.", "sr", "sr.", "ii", "iii", "iv"]);
  const FOUND = 50;  // authors listed at a time by the index's filter box

  // The letter an author is filed under: generator/explore/authors.py:letter, the same rule.
  function authorLetter(name) {
    const words = name.split(" ");
    let last = words.length - 1;
    while (last > 0 && SUFFIXES.has(words[last].toLowerCase())) last -= 1;
    const first = words[last].normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().charAt(0);
    return first >= "a" && first <= "z" ? first : "other";
  }
  window.authorLetter = authorLetter;

  // The key under which spellings of one person meet: generator/explore/authors.py:person_key,
  // the same rule (lower case, accents folded, trailing marks such as '*' dropped).
  const withoutMarks = (name) => name.replace(/[\s*†‡§¶#]+$/u, "") || name;
  function personKey(name) {
    return withoutMarks(name).toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "").split(/\s+/).filter(Boolean).join(" ");
  }
  window.personKey = personKey;

  const element = (tag, properties = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), properties);
    node.append(...children);
    return node;
  };

  const authorLink = (name, base) => element("a", { href: `${base}?name=${encodeURIComponent(name)}`, textContent: name });

  function showAuthor(root, body, asked, data) {
    const heading = body.querySelector(".md-content h1");
    // The address may spell the name as any paper does: the person's shown name, by their key.
    const name = (data.people || {})[personKey(asked)] || asked;
    const numbers = data.authors[name];
    const siteName = document.title.split(" - ").slice(1).join(" - ");
    if (!numbers) {
      if (heading) heading.textContent = "Author not found";
      const why = name ? `No author on this site is named “${name}”.` : "This page shows one author's papers, named in its address.";
      root.replaceChildren(element("p", {}, `${why} The `,
        element("a", { href: root.dataset.index, textContent: "Authors index" }), " lists every author by surname."));
      return;
    }
    if (heading) heading.textContent = name;
    document.title = siteName ? `${name} - ${siteName}` : name;
    const papers = numbers.map((n) => data.papers[String(n)]);
    const together = new Map();
    for (const [, , , names] of papers) {
      for (const other of names) if (other !== name) together.set(other, (together.get(other) || 0) + 1);
    }
    const coauthors = [...together.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const list = element("ul", { className: "author-papers" }, ...papers.map(([title, slug, summary]) => {
      const item = element("li", {}, element("a", { href: `${root.dataset.papers}${encodeURIComponent(slug)}/`, textContent: title }));
      if (window.readingList) item.append(" ", window.readingList.button(slug, title));
      item.append(element("br"), element("span", { className: "author-papers__summary", textContent: summary }));
      return item;
    }));
    const parts = [element("p", { className: "author-summary", textContent:
      `${papers.length} paper${papers.length === 1 ? "" : "s"} on this site, with ${coauthors.length} co-author${coauthors.length === 1 ? "" : "s"}.` }), list];
    if (coauthors.length) {
      parts.push(element("h2", { id: "co-authors", textContent: "Co-authors" }),
        element("p", { textContent: "With the number of papers written together on this site, most first." }),
        element("ul", { className: "author-list author-coauthors" }, ...coauthors.map(([other, count]) =>
          element("li", {}, authorLink(other, ""), " ", element("span", { className: "author-count", textContent: `(${count})` })))));
    }
    parts.push(element("p", {}, element("a", { href: root.dataset.index, textContent: "All authors" })));
    root.replaceChildren(...parts);
  }

  function authorPage(root, body) {
    const name = (new URLSearchParams(location.search).get("name") || "").trim().replace(/\s+/g, " ").normalize("NFC");
    root.dataset.ready = "loading";
    if (!name) {
      showAuthor(root, body, "", { authors: {}, papers: {} });
      root.dataset.ready = "true";
      return;
    }
    const source = `${root.dataset.letters}${authorLetter(withoutMarks(name))}.json`;
    fetch(new URL(source, location.href))
      .then((response) => {
        if (!response.ok) throw new Error(`${source}: HTTP ${response.status}`);
        return response.json();
      })
      .then((data) => {
        showAuthor(root, body, name, data);
        root.dataset.ready = "true";
      })
      .catch((error) => {
        root.dataset.ready = "failed";
        console.warn(error);
      });
  }

  function filterBox(label, body) {
    const input = label.querySelector("input");
    const found = body.querySelector(".author-filter__results");
    let names = null;  // names.json's [name, papers] list, once fetched
    label.hidden = false;
    input.addEventListener("input", () => {
      const wanted = input.value.trim().toLowerCase();
      for (const list of body.querySelectorAll(".md-content .author-list")) {
        let shown = 0;
        for (const item of list.children) {
          item.hidden = !item.textContent.toLowerCase().includes(wanted);
          if (!item.hidden) shown += 1;
        }
        list.hidden = shown === 0;
        const heading = list.previousElementSibling;
        if (heading && heading.tagName === "H2") heading.hidden = shown === 0;
      }
      if (!input.dataset.names || !found) return;
      if (wanted.length < 2) {
        found.hidden = true;
        return;
      }
      const show = () => {
        const matches = names.filter(([name]) => name.toLowerCase().includes(wanted));
        found.replaceChildren(...matches.slice(0, FOUND).map(([name, count]) =>
          element("li", {}, authorLink(name, "author/"), " ", element("span", { className: "author-count", textContent: `(${count})` }))));
        if (matches.length > FOUND) found.append(element("li", { textContent: `and ${matches.length - FOUND} more: type more of the name` }));
        if (!matches.length) found.append(element("li", { textContent: "No author's name contains that." }));
        found.hidden = false;
      };
      if (names) return show();
      fetch(new URL(input.dataset.names, location.href))
        .then((response) => response.json())
        .then((data) => {
          names = data.authors;
          if (input.value.trim().length >= 2) input.dispatchEvent(new Event("input"));
        })
        .catch((error) => console.warn(error));
    });
  }

  document$.subscribe(({ body }) => {
    const root = body.querySelector(".author-page");
    if (root && !root.dataset.ready) authorPage(root, body);
    for (const label of body.querySelectorAll(".author-filter")) filterBox(label, body);
  });
})();
