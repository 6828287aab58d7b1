"""Sphinx configuration of the ciauto documentation site (built by tools/docs.sh; see tools/build_docs.py).

The source folder is generated (`_site_build/src`): the notebooks with their outputs, nbdev directives removed,
tests folded, and one API page per public module. This file only configures Sphinx, MyST-NB and the theme.
"""
import configparser
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # ciauto_docs.py
sys.path.insert(0, str(ROOT))  # the package as checked out
_ini = configparser.ConfigParser()
_ini.read(ROOT / "settings.ini")
_cfg = _ini["DEFAULT"]

project = _cfg["lib_name"]
author = _cfg["author"]
copyright = "2026, " + author
release = version = _cfg["version"]

extensions = [
    "myst_nb",                   # notebooks (with their saved outputs) and MyST markdown pages
    "sphinx.ext.autodoc",        # the API reference: signatures and docstrings
    "sphinx.ext.mathjax",
    "ciauto_docs",               # docs/ciauto_docs.py: docments parameter tables; MathJax served by the site
]
templates_path = ["_templates"]
html_static_path = ["_static"]
html_css_files = ["ciauto.css"]
exclude_patterns = ["**.ipynb_checkpoints"]
default_role = "literal"         # `x` in a docstring is code, as in the notebooks' markdown

# MyST-NB: never execute (tools/build_docs.py supplies executed notebooks), render $math$, fold the tests
nb_execution_mode = "off"
nb_output_stderr = "remove"       # warnings and progress bars are noise on a page
nb_merge_streams = True
nb_code_prompt_show = "Show the {type} (tests)"
nb_code_prompt_hide = "Hide the {type}"
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist", "smartquotes"]
myst_heading_anchors = 3
myst_dmath_double_inline = True
suppress_warnings = ["myst.header", "mystnb.unknown_mime_type", "misc.highlighting_failure", "myst.xref_missing"]

# autodoc: the signature as written (defaults from the source), members in source order
autodoc_member_order = "bysource"
autodoc_preserve_defaults = True
autodoc_typehints = "signature"
autodoc_class_signature = "mixed"
autodoc_default_options = {"members": True}
add_module_names = False
python_maximum_signature_line_length = 100

html_theme = "pydata_sphinx_theme"
html_title = "ciauto"
html_show_sourcelink = False
html_copy_source = False
html_theme_options = {
    "navbar_align": "left",
    "navigation_depth": 2,
    "show_nav_level": 1,
    "show_toc_level": 2,
    "collapse_navigation": False,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": [],
    "navbar_end": ["search-button", "theme-switcher"],
    "navbar_persistent": [],
}
html_sidebars = {"**": ["sidebar-nav-all"]}
html_context = {"default_mode": "light"}
