// Render the math that pymdownx.arithmatex marked, with the vendored KaTeX.
// Only .arithmatex elements are rendered, so a stray "$" or "\(" in prose stays text.
// document$ re-runs this after every instant-navigation page change.
document$.subscribe(({ body }) => {
  for (const element of body.querySelectorAll(".arithmatex")) {
    if (element.dataset.rendered) continue;
    const source = element.textContent.trim();
    const display = source.startsWith("\\[");
    const tex = source.replace(/^\\[([]/, "").replace(/\\[)\]]$/, "");
    try {
      katex.render(tex, element, { displayMode: display, throwOnError: false, output: "htmlAndMathml" });
      element.dataset.rendered = "true";
    } catch (error) {
      console.warn("KaTeX could not render", tex, error);
    }
  }
});
