// The reading list (issue 35): papers a reader saves, in the order saved, kept in this browser
// only. localStorage holds [{slug, title}] through Material's __md_get/__md_set, whose keys
// carry the site's path (two sites on one host keep two lists); the title only names a paper
// whose page has gone. All else is read from each paper's own page (its title, names, summary,
// tags, links and BibTeX as theme/paper.html shows them), so a shared list needs nothing but slugs.
// - window.readingList.button(slug, title): a toggle button, for other scripts (Browse, author
//   pages). Every button of one paper shows the same state, in other tabs too.
// - Paper pages get one in their header (.paper-reading); tag, area and collection pages one per
//   paper of the list after .paper-list-marker (templates/listing.md.j2).
// - The Reading list page (.reading-list, templates/reading_list.md.j2) shows the saved papers,
//   removable, exports them as BibTeX, CSV or Markdown and shares them as ?papers=slug,slug; a
//   shared list is shown with a choice to add it to one's own, replace one's own, or just look.
// Titles and every other value come from input: set with textContent only.
(() => {
  const KEY = "reading-list";
  const SLUG = /^[a-z0-9][a-z0-9-]{0,199}$/;  // as generator.enrich.paper.slugify makes them
  const SHARED_MOST = 500;  // papers read from a share link at most: each is a page to fetch
  const WEB = /^https?:\/\//i;
  let pageChanged = null;  // the open Reading list page's, told when the list changes

  const element = (tag, properties = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), properties);
    node.append(...children);
    return node;
  };

  // The saved list, as stored by this script (anything else there is left out).
  function saved() {
    let list = null;
    try {
      list = __md_get(KEY);
    } catch {
      // not JSON: read as empty, replaced at the next save
    }
    if (!Array.isArray(list)) return [];
    const seen = new Set();
    return list
      .filter((entry) => entry && SLUG.test(entry.slug) && !seen.has(entry.slug) && seen.add(entry.slug))
      .map((entry) => ({ slug: entry.slug, title: typeof entry.title === "string" ? entry.title : entry.slug }));
  }

  function store(list) {
    __md_set(KEY, list);
    changed();
  }

  function changed() {
    const slugs = new Set(saved().map((entry) => entry.slug));
    for (const node of document.querySelectorAll("button.reading-toggle")) paint(node, slugs.has(node.dataset.slug));
    if (pageChanged) pageChanged();
  }

  // Another tab saved or removed a paper.
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key === `${__md_scope.pathname}.${KEY}`) changed();
  });

  function paint(node, on) {
    node.setAttribute("aria-pressed", String(on));
    node.setAttribute("aria-label", `${on ? "Remove from" : "Add to"} reading list: ${node.dataset.title}`);
  }

  function button(slug, title) {
    const node = element("button", { type: "button", className: "reading-toggle", textContent: "Reading list" });
    node.dataset.slug = slug;
    node.dataset.title = title;
    node.setAttribute("data-pagefind-ignore", "");
    paint(node, saved().some((entry) => entry.slug === slug));
    node.addEventListener("click", () => {
      const list = saved();
      const index = list.findIndex((entry) => entry.slug === slug);
      if (index >= 0) list.splice(index, 1);
      else list.push({ slug, title });
      store(list);
    });
    return node;
  }

  window.readingList = { button };

  // A paper page's data, read from its markup (theme/paper.html): the page shown (`doc` its body)
  // or one fetched from `address`, whose links are relative to it. Null for any other page.
  function paperData(doc, address) {
    const place = doc.querySelector(".paper-reading[data-slug]");
    const heading = doc.querySelector(".paper h1");
    if (!place || !heading || !SLUG.test(place.dataset.slug)) return null;
    const text = (selector) => (doc.querySelector(selector)?.textContent || "").trim();
    const tagUrls = {};
    const tags = [...doc.querySelectorAll(".paper-tags li")].map((entry) => {
      const name = entry.textContent.trim();
      const link = entry.querySelector("a[href]");
      if (link) tagUrls[name] = new URL(link.getAttribute("href"), address).href;
      return name;
    });
    return {
      slug: place.dataset.slug,
      title: heading.textContent.trim(),
      summary: text(".paper-summary"),
      authors: [...doc.querySelectorAll(".paper-authors a")].map((link) => link.textContent),
      collection: text(".paper-context a"),
      tags,
      tag_urls: tagUrls,
      links: [...doc.querySelectorAll(".paper-links a[href]")].map((link) => ({ label: link.textContent.trim(), url: link.getAttribute("href") })),
      bibtex: doc.querySelector(".paper-bibtex code")?.textContent || "",
    };
  }

  document$.subscribe(({ body }) => {
    const place = body.querySelector(".paper-reading");
    const data = place && !place.childElementCount && paperData(body, location.href);
    if (data) {
      place.append(button(data.slug, data.title));
      place.hidden = false;
    }
    for (const marker of body.querySelectorAll(".paper-list-marker")) {
      let list = marker.nextElementSibling;
      while (list && list.tagName !== "UL") list = list.nextElementSibling;  // past the sort button's paragraph
      if (!list || list.dataset.reading) continue;
      list.dataset.reading = "true";
      for (const item of list.children) {
        const link = item.querySelector(":scope > a[href]");
        const slug = link && /\/papers\/([^/]+)\/$/.exec(new URL(link.href).pathname)?.[1];
        if (slug && SLUG.test(slug)) link.after(" ", button(slug, link.textContent));
      }
    }
    const root = body.querySelector(".reading-list[data-root]");
    if (root && !root.dataset.ready) {
      root.dataset.ready = "true";
      readingListPage(root);
    }
  });

  // The text a spreadsheet reads as a formula (=, +, -, @; tab and CR too) starts with ' instead;
  // every cell quoted (RFC 4180).
  function csvCell(value) {
    const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return `"${text.replace(/"/g, '""')}"`;
  }

  // Text in Markdown as it reads, in CommonMark and in Python-Markdown alike: one line, markup
  // characters backslash-escaped where both allow it, else (< & ~ $) as character references, and
  // nothing that starts a block (heading, list, quote).
  function markdownText(value) {
    return value.replace(/\s+/g, " ").trim()
      .replace(/[\\`*_{}[\]<&~$]/g, (c) => ("<&~$".includes(c) ? `&#${c.charCodeAt(0)};` : `\\${c}`))
      .replace(/^[-+#>]/, "\\$&").replace(/^=/, "&#61;").replace(/^(\d+)([.)])/, "$1\\$2");
  }

  const markdownUrl = (url) => url.replace(/[\s()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);

  function download(name, type, text) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const link = element("a", { href: url, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  function readingListPage(root) {
    const site = new URL(root.dataset.root, location.href);
    const paperUrl = (slug) => new URL(`papers/${slug}/`, site).href;
    const fetched = new Map();  // slug -> promise of {data} or {missing} or {failed}
    const query = new URLSearchParams(location.search);
    let shared = query.has("papers") ? [...new Set(query.get("papers").split(",").filter((s) => SLUG.test(s)))].slice(0, SHARED_MOST) : null;
    let shown = [];  // the papers listed: {slug, title, data | missing | failed}
    let rendering = 0;
    let focusAfter = null;  // the place of a removed paper: its next one gets the focus
    let news = "";  // what the next showing says, after the count

    const status = element("p", { className: "reading-list__status" });
    status.setAttribute("role", "status");
    const say = (text) => { status.textContent = text; };
    const control = (text, action, primary = false) => {
      const node = element("button", { type: "button", className: `md-button${primary ? " md-button--primary" : ""}`, textContent: text });
      node.addEventListener("click", action);
      return node;
    };

    const sharedNote = element("p");
    const sharedBar = element("div", { className: "reading-list__shared" }, sharedNote,
      element("div", { className: "reading-list__buttons" },
        control("Add these to my list", () => adopt(false), true),
        control("Replace my list with these", () => adopt(true)),
        control("Show my own list", () => leaveShared("Showing your own list."))));
    const shareField = element("input", { type: "text", readOnly: true, className: "reading-list__link" });
    const shareLabel = element("label", { className: "reading-list__link-label", hidden: true }, "Share link ", shareField);
    const tools = element("div", { className: "reading-list__tools" },
      element("div", { className: "reading-list__buttons" },
        control("Download BibTeX", () => exported("reading-list.bib", "application/x-bibtex", bibtex)),
        control("Download CSV", () => exported("reading-list.csv", "text/csv", csv)),
        control("Download Markdown", () => exported("reading-list.md", "text/markdown", markdown)),
        control("Copy share link", share)),
      shareLabel);
    tools.setAttribute("role", "group");
    tools.setAttribute("aria-label", "Export and share");
    const empty = element("p", { className: "reading-list__empty", hidden: true, tabIndex: -1,
      textContent: "Your reading list is empty. Save papers with the Reading list button on a paper's page, in Browse, or on a tag, area or collection page." });
    const papers = element("ol", { className: "reading-list__papers" });
    root.append(status, sharedBar, tools, empty, papers);

    pageChanged = () => {
      if (!root.isConnected) pageChanged = null;
      else if (!shared) render();
    };

    function paper(slug) {
      if (!fetched.has(slug)) {
        fetched.set(slug, fetch(paperUrl(slug))
          .then(async (response) => {
            if (response.status === 404) return { missing: true };
            if (!response.ok) throw new Error(`${paperUrl(slug)}: HTTP ${response.status}`);
            const data = paperData(new DOMParser().parseFromString(await response.text(), "text/html"), response.url);
            return data && data.slug === slug ? { data } : { missing: true };
          })
          .catch((error) => {
            console.warn(error);
            fetched.delete(slug);  // asked again at the next showing
            return { failed: true };
          }));
      }
      return fetched.get(slug);
    }

    async function render() {
      const run = ++rendering;
      const entries = shared ? shared.map((slug) => ({ slug, title: slug })) : saved();
      sharedBar.hidden = !shared;
      if (entries.some((entry) => !fetched.has(entry.slug))) say(`Loading ${count(entries.length)}…`);
      const found = await Promise.all(entries.map((entry) => paper(entry.slug)));
      if (run !== rendering) return;
      const message = news;
      news = "";
      shown = entries.map((entry, i) => ({ ...entry, ...found[i], title: found[i].data ? found[i].data.title : entry.title }));
      papers.replaceChildren(...shown.map(item));
      shareLabel.hidden = true;  // its link may name other papers now
      empty.hidden = shown.length > 0;
      tools.hidden = !shown.some((p) => p.data);
      const gone = shown.filter((p) => !p.data).length;
      const missing = gone ? `, ${gone} not found` : "";
      sharedNote.textContent = `A shared reading list of ${count(shown.length)}, shown below. Keep it:`;
      if (shared) say(`${message}Shared list: ${count(shown.length)}${missing}.`);
      else say(`${message}${shown.length ? `${count(shown.length)} in your reading list${missing}.` : ""}`);
      if (focusAfter !== null) {
        const removes = papers.querySelectorAll(".reading-list__remove");
        (removes[Math.min(focusAfter, removes.length - 1)] || empty).focus();
        focusAfter = null;
      }
    }

    const count = (n) => `${n} paper${n === 1 ? "" : "s"}`;

    function item(entry) {
      const node = element("li", { className: "reading-list__paper" });
      const actions = element("p", { className: "reading-list__actions" });  // its links, then Remove (or the toggle)
      const data = entry.data;
      if (data) {
        node.append(element("a", { className: "reading-list__title", href: paperUrl(entry.slug), textContent: data.title }));
        if (data.authors.length) node.append(element("p", { className: "reading-list__authors", textContent: data.authors.join(", ") }));
        node.append(element("p", { className: "reading-list__summary", textContent: data.summary }));
        if (data.tags.length) {
          const tags = element("ul", { className: "paper-tags" });
          tags.setAttribute("aria-label", "Tags");
          for (const tag of data.tags) {
            const url = data.tag_urls[tag];
            tags.append(element("li", {}, element(url ? "a" : "span", { className: "md-tag", textContent: tag, ...(url ? { href: new URL(url, site).href } : {}) })));
          }
          node.append(tags);
        }
        for (const link of data.links.filter((l) => WEB.test(l.url))) {
          actions.append(element("a", { className: "md-button", href: link.url, rel: "noopener nofollow", textContent: link.label }));
        }
      } else {
        node.classList.add("reading-list__paper--gone");
        node.append(element("span", { className: "reading-list__title", textContent: entry.title }),
          element("p", { className: "reading-list__summary",
            textContent: entry.missing ? "This paper's page is no longer on this site." : "This paper's page could not be loaded; it is tried again next time." }));
      }
      actions.append(shared ? button(entry.slug, entry.title) : remover(entry));
      node.append(actions);
      return node;
    }

    function remover(entry) {
      const node = element("button", { type: "button", className: "md-button reading-list__remove", textContent: "Remove" });
      node.setAttribute("aria-label", `Remove from reading list: ${entry.title}`);
      node.addEventListener("click", () => {
        const list = saved();
        focusAfter = Math.max(0, list.findIndex((e) => e.slug === entry.slug));
        news = `Removed ${entry.title}. `;
        store(list.filter((e) => e.slug !== entry.slug));
      });
      return node;
    }

    // The address without ?papers=: a reload shows one's own list.
    function leaveShared(message) {
      shared = null;
      history.replaceState(history.state, "", `${location.pathname}${location.hash}`);
      news = `${message} `;
      render();
    }

    async function adopt(replace) {
      const slugs = shared;
      if (!slugs) return;
      const found = await Promise.all(slugs.map(paper));
      if (shared !== slugs) return;  // another click kept them meanwhile
      const kept = slugs.map((slug, i) => ({ slug, title: found[i].data?.title })).filter((entry) => entry.title);
      const mine = replace ? [] : saved();
      const have = new Set(mine.map((entry) => entry.slug));
      const added = kept.filter((entry) => !have.has(entry.slug));
      __md_set(KEY, [...mine, ...added]);
      const skipped = slugs.length - kept.length;
      const already = kept.length - added.length;
      leaveShared(`${replace ? "Replaced your list with" : "Added"} ${count(added.length)}${already ? ` (${already} already there)` : ""}${skipped ? `; ${skipped} not found, left out` : ""}.`);
    }

    function exported(name, type, make) {
      const ready = shown.filter((p) => p.data);
      download(name, type, make(ready));
      const left = shown.length - ready.length;
      say(`Downloaded ${name}: ${count(ready.length)}${left ? `; ${left} not found, left out` : ""}.`);
    }

    // Each paper's entry as its page has it, with its address made absolute if the site has no
    // site_url, and a letter after a key another paper has already (same first author, year, word).
    function bibtex(ready) {
      const keys = new Map();
      return ready.filter((p) => p.data.bibtex).map((p) => {
        let entry = p.data.bibtex.replace(/^( {2}url = \{)([^}]*)(\},?)$/m, (line, open, url, close) => (WEB.test(url) ? line : `${open}${paperUrl(p.slug)}${close}`));
        const key = /^@\w+\{([^,\s]*),/.exec(entry)?.[1];
        if (key !== undefined) {
          const times = keys.get(key) || 0;
          keys.set(key, times + 1);
          if (times) entry = entry.replace(`{${key},`, `{${key}${times < 26 ? String.fromCharCode(97 + times) : times + 1},`);
        }
        return entry;
      }).join("\n\n") + "\n";
    }

    // UTF-8 with a byte-order mark (else Excel reads accented names wrongly), CRLF line ends.
    function csv(ready) {
      const rows = [["title", "authors", "collection", "summary", "tags", "url", "links"]];
      for (const { slug, data } of ready) {
        rows.push([data.title, data.authors.join("; "), data.collection, data.summary, data.tags.join("; "), paperUrl(slug),
          data.links.filter((link) => WEB.test(link.url)).map((link) => link.url).join(" ")]);
      }
      return `\ufeff${rows.map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
    }

    function markdown(ready) {
      const lines = ["# Reading list", ""];
      for (const { slug, data } of ready) {
        lines.push(`- [${markdownText(data.title)}](${markdownUrl(paperUrl(slug))})  `);
        const about = [data.authors.join(", "), data.collection].filter(Boolean).map(markdownText).join(" · ");
        lines.push(`  ${about}  `, `  ${markdownText(data.summary)}`);
        const links = data.links.filter((link) => WEB.test(link.url));
        if (links.length) lines.push(`  Links: ${links.map((link) => `[${markdownText(link.label)}](${markdownUrl(link.url)})`).join(", ")}`);
      }
      return `${lines.join("\n")}\n`;
    }

    function share() {
      const slugs = shown.filter((p) => p.data).map((p) => p.slug);
      shareField.value = new URL(`reading-list/?papers=${slugs.map(encodeURIComponent).join(",")}`, site).href;
      shareLabel.hidden = false;
      const copied = () => say("Share link copied: it opens this list in any browser.");
      const shownOnly = () => {
        shareField.select();
        say("Share link made: copy it from the field below.");
      };
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(shareField.value).then(copied, shownOnly);
      else shownOnly();
    }

    if (shared && !shared.length) leaveShared("The link holds no papers of this site; showing your own list.");
    else render();
  }
})();
