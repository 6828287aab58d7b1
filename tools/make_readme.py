"""Write README.md from nbs/index.ipynb without quarto (not installable here).

nbdev_readme needs quarto; this does the part we need: drop `#| hide` cells and directive lines, turn the
front-matter cell into a title and a description, and render the rest (with saved outputs) to Markdown.
`--check` exits 1 when README.md is not what the notebook gives.
"""
import sys
from pathlib import Path

import nbformat
from nbconvert import MarkdownExporter

ROOT = Path(__file__).parents[1]


def _front_matter(cell):
    meta = {}
    for line in cell.source.splitlines():
        if ":" in line and not line.startswith("---"):
            key, value = line.split(":", 1)
            meta[key.strip()] = value.strip()
    return meta


def render():
    nb = nbformat.read(ROOT / "nbs" / "index.ipynb", as_version=4)
    title, description, cells = "ciauto", "", []
    for cell in nb.cells:
        src = cell.source.lstrip()
        if cell.cell_type in ("raw", "markdown") and src.startswith("---"):
            meta = _front_matter(cell)
            title, description = meta.get("title", title), meta.get("description", description)
            continue
        if cell.cell_type == "code":
            lines = cell.source.splitlines()
            if any(l.replace(" ", "").startswith("#|hide") for l in lines):
                continue
            cell.source = "\n".join(l for l in lines if not l.startswith("#|")).strip()
        cells.append(cell)
    nb.cells = cells
    nb.metadata["language_info"] = {"name": "python"}
    body, _ = MarkdownExporter(exclude_input_prompt=True, exclude_output_prompt=True).from_notebook_node(nb)
    head = f"# {title}\n\n" + (f"> {description}\n\n" if description else "")
    return head + body.strip() + "\n"


if __name__ == "__main__":
    text = render()
    readme = ROOT / "README.md"
    if "--check" in sys.argv:
        if not readme.exists() or readme.read_text() != text:
            sys.exit("README.md is out of date: run python tools/make_readme.py")
    else:
        readme.write_text(text)
