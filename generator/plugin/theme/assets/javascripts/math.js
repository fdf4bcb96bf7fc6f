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
      // trust: false (KaTeX's default, stated): math comes from input, and \href, \url and
      // \htmlData would otherwise make links and attributes from it.
      katex.render(tex, element, { displayMode: display, throwOnError: false, output: "htmlAndMathml", trust: false });
      element.dataset.rendered = "true";
    } catch (error) {
      console.warn("KaTeX could not render", tex, error);
    }
  }
});
