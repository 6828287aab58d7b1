"""The documentation site, checked as a reader would: built from this checkout (in CI: a fresh clone) by
`bash tools/docs.sh`, then every notebook's page, every public name with each of its parameters, every internal
link, the search index, and three pages rendered by headless Chromium (screenshots and DOM).

The build reuses the executed notebooks the test run saved in `_executed/` (`pytest nbs tests` runs the notebooks
first); run alone, it executes the library notebooks itself (several minutes). nbdev's own docs processing
(`nbdev_proc_nbs`) is checked here too, in a copy of the checkout (it rewrites files under nbs/).
"""
import html.parser
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).parents[1]
SITE = ROOT / "_docs"
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "docs"))
import build_docs  # noqa: E402
from ciauto_docs import parameter_rows  # noqa: E402

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars"]


def _copy_checkout(dest):
    "The files a clone has (tracked, plus new files not ignored), as .ci/run copies them; outside git, all but caches."
    proc = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                          capture_output=True)
    if proc.returncode == 0:
        for f in filter(None, proc.stdout.decode().split("\0")):
            src = ROOT / f
            if src.is_file():
                (dest / f).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest / f)
        return
    # .ci/run's copy is not a git repository: copy it whole, without the venv, caches and build products
    skip_names = shutil.ignore_patterns(".venv", ".git", "_docs", "_executed", "_site_build", "_proc", ".numba_cache",
                                        "__pycache__", ".pytest_cache", "*.egg-info", "jupyter_execute")

    def skip(folder, names):  # and bench/out, which the benchmarks' quick runs may be writing meanwhile
        return skip_names(folder, names) | ({"out"} & set(names) if Path(folder) == ROOT / "bench" else set())

    shutil.copytree(ROOT, dest, ignore=skip, dirs_exist_ok=True)


@pytest.fixture(scope="module")
def site():
    "Build the site once for this module (tools/docs.sh, as a user runs it)."
    proc = subprocess.run(["bash", "tools/docs.sh"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, (proc.stdout[-3000:] + proc.stderr[-5000:])
    return SITE


def _pages():
    "Every page a notebook must have: {notebook path: html path}."
    groups = build_docs.notebooks()
    pages = {p: SITE / p.relative_to(build_docs.NBS).with_suffix(".html") for ps in groups.values() for p in ps}
    pages[build_docs.NBS / "index.ipynb"] = SITE / "index.html"
    return pages


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        for key in ("href", "src"):
            if attrs.get(key) and tag in ("a", "img", "link", "script"):
                self.links.append(attrs[key])


def _parse(path):
    p = _Links()
    p.feed(path.read_text(encoding="utf-8"))
    return p


# --- nbdev -----------------------------------------------------------------------------------------------------

# nbdev's docs step reads no executed notebook: it runs in a copy of the checkout as a background process (conftest.py),
# beside the notebooks, this module's own script (`python tests/test_docs.py proc-nbs DEST`); one folder per test run
PROC_COPY = Path(tempfile.gettempdir()) / f"ciauto-proc-nbs-{os.getpid()}"


def proc_nbs_in_copy(dest):
    "Copy the checkout to `dest` and run nbdev's docs step there, with a stand-in for quarto. Returns its exit code."
    dest.mkdir(parents=True, exist_ok=True)
    _copy_checkout(dest)
    fake = dest / "_fakebin"
    fake.mkdir(exist_ok=True)
    (fake / "quarto").write_text("#!/bin/sh\nexit 0\n")  # nbdev_proc_nbs insists on quarto, which it never runs
    (fake / "quarto").chmod(0o755)
    env = dict(os.environ, PATH=f"{fake}{os.pathsep}{os.environ['PATH']}", PYTHONPATH=str(dest))
    # in one process (no workers): the same notebooks, each in its own shell, with the package imported once; nbdev's
    # two spawned workers used 74 CPU seconds for it against 43
    return subprocess.run(["nbdev_proc_nbs", "--n_workers", "0"], cwd=dest, env=env).returncode


@pytest.mark.background([sys.executable, __file__, "proc-nbs", str(PROC_COPY)], timeout=1200)
def test_nbdev_proc_nbs_succeeds_on_every_notebook(background):
    "nbdev's docs step runs every export and import cell of every notebook; it must not fail on any of them."
    try:
        returncode, _, stderr = background
        assert returncode == 0, stderr[-4000:]
        notebooks = sorted(p.relative_to(PROC_COPY / "nbs") for p in (PROC_COPY / "nbs").rglob("*.ipynb"))
        missing = [str(n) for n in notebooks if not (PROC_COPY / "_proc" / n).exists()]
        assert notebooks and not missing, f"nbdev_proc_nbs left out {missing}"
    finally:
        shutil.rmtree(PROC_COPY, ignore_errors=True)


def test_quarto_config_is_valid():
    "nbdev_docs keeps working where Quarto exists: _quarto.yml parses and names files nbdev generates or ships."
    import yaml
    cfg = yaml.safe_load((ROOT / "nbs" / "_quarto.yml").read_text())
    assert cfg["project"]["type"] == "website"
    for f in cfg.get("metadata-files", []):
        assert (ROOT / "nbs" / f).exists() or f == "sidebar.yml", f  # nbdev_sidebar writes sidebar.yml
    assert yaml.safe_load((ROOT / "nbs" / "nbdev.yml").read_text())["project"]["output-dir"] == "_docs"


# --- the built site --------------------------------------------------------------------------------------------

def test_every_notebook_has_a_page(site):
    pages = _pages()
    missing = [str(p.relative_to(ROOT)) for p, page in pages.items() if not page.exists()]
    assert not missing, f"notebooks without a page: {missing}"
    nav = (site / "index.html").read_text(encoding="utf-8")
    for group in ("Guide", "Tutorials", "API reference"):
        assert f">{group}<" in nav, f"the sidebar has no {group} group"
    if build_docs.notebooks()["Course"]:
        assert ">Course<" in nav or "course/index.html" in nav


def test_library_pages_show_outputs_and_fold_tests(site):
    "A library notebook is committed without outputs; its page shows the executed outputs and folds its tests."
    page = (site / "03_bbc.html").read_text(encoding="utf-8")
    assert 'class="cell_output' in page, "03_bbc's page has no outputs"
    assert "Show the source (tests)" in page, "03_bbc's test cells are not folded"
    assert "mjx" in page or "math notranslate" in page, "03_bbc's formulas are not marked as math"


def test_no_raw_nbdev_directive_is_shown(site):
    shown = [str(p.relative_to(site)) for p in site.rglob("*.html")
             if re.search(r'<span class="c1">#\|', p.read_text(encoding="utf-8"))]
    assert not shown, f"pages showing `#|` directives: {shown}"


def test_every_public_name_and_parameter_is_on_its_api_page(site):
    "Every class and function, and every constant with a one-line description; the others are left out."
    problems = []
    public = build_docs.public_modules()
    shown = build_docs.documented(public)
    for mod, names in public.items():
        m = importlib.import_module(mod)
        problems += [f"{mod}.{n}: left out but not a constant" for n in names
                     if n not in shown[mod] and build_docs._kind(getattr(m, n)) != "autodata"]
    for mod, names in shown.items():
        page = site / "api" / f"{mod}.html"
        if not page.exists():
            problems.append(f"{mod}: no page")
            continue
        text = page.read_text(encoding="utf-8")
        m = importlib.import_module(mod)
        for name in names:
            if f'<span class="sig-name descname"><span class="pre">{name}</span>' not in text:
                problems.append(f"{mod}.{name}: no entry")
                continue
            obj = getattr(m, name)
            if build_docs._kind(obj) != "autodata":  # a callable constant (a registered Metric) has no parameter table
                rows, _ = parameter_rows(obj if not isinstance(obj, type) or hasattr(obj, "__dataclass_fields__")
                                         else obj.__init__)
                for param, *_ in rows:
                    if f'<span class="pre">{param}</span>' not in text:
                        problems.append(f"{mod}.{name}: parameter {param} not shown")
        if 'class="ciauto-params' not in text and any(build_docs._kind(getattr(m, n)) != "autodata" for n in names):
            problems.append(f"{mod}: no parameter table")
    assert not problems, problems


def _visible_text(html_text):
    "The text a reader sees: no scripts, styles or tags; entities decoded."
    import html as html_module
    html_text = re.sub(r"<(script|style)\b.*?</\1>", " ", html_text, flags=re.S)
    return html_module.unescape(re.sub(r"<[^>]+>", "", html_text))


def test_api_pages_show_no_raw_markdown_or_addresses(site):
    "Docstrings and parameter comments are rendered as Markdown: no `backtick` or **asterisk** is shown raw."
    problems = []
    for page in sorted((site / "api").glob("ciauto.*.html")):
        text = _visible_text(page.read_text(encoding="utf-8"))
        for pattern, what in ((r"`[^`\n]+`", "a raw `code` span"), (r"\*\*[^*\n]+\*\*", "raw **bold**"),
                              (r" at 0x[0-9a-f]{6,}", "a memory address")):
            found = re.findall(pattern, text)
            if found:
                problems.append(f"{page.name}: {what}: {found[:3]}")
        for value in re.findall(r"Value: (.*)", text):
            if len(value) > 88:
                problems.append(f"{page.name}: a value longer than a line: {value[:60]}…")
    assert not problems, problems


def test_tutorials_link_the_api_entries_they_use(site):
    problems = []
    for p in build_docs.notebooks()["Tutorials"]:
        page = (site / "tutorials" / f"{p.stem}.html").read_text(encoding="utf-8")
        if "from ciauto" in p.read_text(encoding="utf-8") and not re.search(r'href="\.\./api/ciauto\.\w+\.html#ciauto', page):
            problems.append(p.stem)
    assert not problems, f"tutorials without links to the API entries they use: {problems}"


def test_no_internal_link_is_broken(site):
    parsed = {p: _parse(p) for p in site.rglob("*.html") if "_static" not in p.relative_to(site).parts}
    broken = []
    for page, p in parsed.items():
        for link in p.links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith(("//", "mailto:", "javascript:")):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{page.relative_to(site)} → {link}")
            elif parts.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else _parse(target).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{page.relative_to(site)} → {link} (no such anchor)")
    assert not broken, f"{len(broken)} broken links: {broken[:20]}"


def test_search_index_covers_the_site(site):
    text = (site / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1:text.rindex(")")])
    docnames = set(index["docnames"])
    for doc in ("index", "03_bbc", "tutorials/winners_curse", "api/ciauto.bbc"):
        assert doc in docnames, doc
    for term in ("bootstrap", "conform", "subgroup"):
        assert term in index["terms"], term
    assert any(entry[-1] == "bbc" for entry in index["objects"]["ciauto.bbc"]), "the API entries are not indexed"


def test_readme_lists_every_module_and_tutorial():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [m for m in build_docs.public_modules() if f"`{m}`" not in readme]
    missing += [p.stem for p in build_docs.notebooks()["Tutorials"] if f"`{p.stem}`" not in readme]
    assert not missing, f"README.md (from nbs/index.ipynb) does not name {missing}"
    assert "bash tools/docs.sh" in readme and "_docs/index.html" in readme


# --- in a browser ----------------------------------------------------------------------------------------------

def _chromium():
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("CI: chromium is not installed (.ci/run installs Debian's chromium with apt-get)")
        pytest.skip("chromium is not installed (apt-get install chromium); CI installs it and runs this test")
    return exe


def _browse(exe, url, tmp_path, screenshot=None, height=2400):
    "The page's DOM after its scripts ran; with `screenshot`, also a PNG of it, from the same launch."
    profile = tempfile.mkdtemp(prefix="profile", dir=tmp_path)  # one per launch: launches may run side by side
    cmd = [exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--window-size=1400,{height}",
           "--virtual-time-budget=15000", "--dump-dom"]
    cmd += [f"--screenshot={screenshot}"] if screenshot else []
    proc = subprocess.run(cmd + [url], capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def _side_by_side(fn, items):
    "[fn(item) for item in items], two at a time: each Chromium launch keeps about one core busy."
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(fn, items))


def _image_stats(path):
    "(share of non-white pixels, share of saturated colour pixels) of a screenshot."
    from PIL import Image
    img = Image.open(path).convert("RGB").resize((350, 600))
    px = list(img.get_flattened_data() if hasattr(img, "get_flattened_data") else img.getdata())
    ink = sum(1 for r, g, b in px if min(r, g, b) < 235) / len(px)
    colour = sum(1 for r, g, b in px if max(r, g, b) - min(r, g, b) > 60) / len(px)
    return ink, colour


PAGES = {"landing": "index.html", "api": "api/ciauto.bbc.html", "tutorial": "tutorials/winners_curse.html",
         "lesson": "course/01_winners_curse.html"}


@pytest.fixture(scope="module")
def rendered(site, tmp_path_factory):
    "The three pages rendered by headless Chromium: {name: (screenshot path, DOM after scripts ran)}."
    exe = _chromium()
    tmp = tmp_path_factory.mktemp("browser")

    def render(name):
        shot = tmp / f"{name}.png"
        return name, (shot, _browse(exe, (site / PAGES[name]).as_uri(), tmp, screenshot=shot,
                                    height=4000 if name == "tutorial" else 2400))
    out = dict(_side_by_side(render, PAGES))
    keep = os.environ.get("CIAUTO_DOCS_SCREENSHOTS")  # to look at them: a folder to copy the screenshots to
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        for shot, _ in out.values():
            shutil.copy(shot, keep)
    return out


def test_pages_render_in_a_browser(rendered):
    for name, (shot, dom) in rendered.items():
        ink, _ = _image_stats(shot)
        assert 0.03 < ink < 0.9, f"{name}: the screenshot looks blank or flooded ({ink:.1%} non-white pixels)"
        assert "bd-sidebar-primary" in dom and "bd-article" in dom, f"{name}: the theme's layout did not render"
        text = re.sub(r"<[^>]+>", " ", re.sub(r"<code\b.*?</code>", " ", dom, flags=re.S))  # prose may name one
        assert "#|" not in text, f"{name}: a raw nbdev directive is shown"
        for group in ("Guide", "Tutorials", "API reference"):
            assert group in text, f"{name}: the sidebar lacks {group}"


def test_landing_page_in_a_browser(rendered):
    shot, dom = rendered["landing"]
    assert "Honest performance estimation" in dom and "Set up and go" in dom
    assert "BBCResult(method=" in dom, "the first example's output is missing"


def test_api_page_in_a_browser(rendered):
    shot, dom = rendered["api"]
    assert 'id="ciauto.bbc.bbc"' in dom and 'id="ciauto.bbc.BBCResult"' in dom
    assert dom.count('class="table ciauto-params') + dom.count('ciauto-params') >= 3, "parameter tables missing"
    for param in ("n_bootstraps", "confidence_level", "winner_rule"):
        assert param in dom


def test_lesson_page_in_a_browser(rendered):
    "A course lesson: its solutions folded under a label, its exercises labelled, its summary whole."
    shot, dom = rendered["lesson"]
    assert dom.count("Show the worked solution") >= 3, "the lesson's solutions are not folded and labelled"
    assert "Your cell:" in dom
    assert "as configurations grow and samples shrink." in dom, "the lesson's summary is cut"


def test_tutorial_page_in_a_browser(rendered, site):
    shot, dom = rendered["tutorial"]
    images = re.findall(r'<img[^>]+src="([^"]+\.png)"', dom)
    assert images, "the tutorial shows no figure"
    for src in images:
        figure = (site / "tutorials" / src).resolve()
        assert figure.exists(), src
        assert _image_stats(figure)[0] > 0.02, f"{src} is blank"
    _, colour = _image_stats(shot)  # the figures' coloured lines and markers, seen in the screenshot
    assert colour > 0.0005, f"no coloured figure pixels in the tutorial's screenshot ({colour:.2%})"
    assert "API used on this page" in dom


def test_formulas_and_search_in_a_browser(site, tmp_path):
    exe = _chromium()
    dom = _browse(exe, (site / "03_bbc.html").as_uri(), tmp_path)
    assert "<mjx-container" in dom, "MathJax did not typeset the formulas (it is served from _static/mathjax)"
    dom = _browse(exe, (site / "search.html").as_uri() + "?q=bootstrap", tmp_path)
    hits = re.findall(r'<li[^>]*>\s*<a href="[^"]+\.html', dom)
    assert hits, "the search page found nothing for 'bootstrap'"


SEARCHES = {  # what a reader types, and the page (#section) the first hit must be
    "Table 2": "tutorials/reproducing_the_study.html",
    "GridSearchCV": "tutorials/your_own_search.html",
    "dask": "02_cvt.html#",
    "ADBench": "tutorials/conformal_anomaly_detection.html",
    "deviations": "papers.html",
}


def test_search_ranks_the_page_a_reader_wants(site, tmp_path):
    "The first hit of the site's search (its own JavaScript, in Chromium) for a topic is the page about it."
    exe = _chromium()
    doms = _side_by_side(lambda q: _browse(exe, (site / "search.html").as_uri() + "?q=" + q.replace(" ", "+"), tmp_path),
                         SEARCHES)
    wrong = {}
    for (query, wanted), dom in zip(SEARCHES.items(), doms):
        hits = re.findall(r'<li[^>]*>\s*<a href="([^"]+)"', dom)
        first = hits[0] if hits else None
        if not first or not first.startswith(wanted):
            wrong[query] = (wanted, hits[:3])
    assert not wrong, f"search ranks another page first: {wrong}"


if __name__ == "__main__":  # the background process of test_nbdev_proc_nbs_succeeds_on_every_notebook
    assert sys.argv[1] == "proc-nbs", sys.argv
    sys.exit(proc_nbs_in_copy(Path(sys.argv[2])))
