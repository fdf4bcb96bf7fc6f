// Tag and area pages: the "Sort by title" button re-orders the ranked list of papers (and back).
// The tag index: the filter box hides the tags (and the area sections left empty) that do not
// contain what is typed. Both stay hidden without JavaScript. document$ re-runs this after
// every instant-navigation page change.
document$.subscribe(({ body }) => {
  for (const button of body.querySelectorAll(".sort-toggle")) {
    const list = button.closest("p")?.nextElementSibling;
    if (!list || list.tagName !== "UL") continue;
    const ranked = [...list.children];
    const byTitle = [...ranked].sort((a, b) => a.textContent.trim().localeCompare(b.textContent.trim()));
    let sorted = false;
    button.hidden = false;
    button.setAttribute("aria-pressed", "false");
    button.addEventListener("click", () => {
      sorted = !sorted;
      list.replaceChildren(...(sorted ? byTitle : ranked));
      button.setAttribute("aria-pressed", String(sorted));
    });
  }
  for (const label of body.querySelectorAll(".table-filter")) {
    const input = label.querySelector("input");
    const tables = [...body.querySelectorAll(".md-typeset table")];
    label.hidden = false;
    input.addEventListener("input", () => {
      const wanted = input.value.trim().toLowerCase();
      for (const table of tables) {
        let shown = 0;
        for (const row of table.tBodies[0].rows) {
          row.hidden = !row.cells[0].textContent.toLowerCase().includes(wanted);
          if (!row.hidden) shown += 1;
        }
        // The area's heading and table go together (Material wraps tables in a div).
        const block = table.closest(".md-typeset__scrollwrap") || table;
        block.hidden = shown === 0;
        const heading = block.previousElementSibling;
        if (heading && /^H2$/.test(heading.tagName)) heading.hidden = shown === 0;
      }
    });
  }
});
