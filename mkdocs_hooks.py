"""MkDocs hooks: the docs find the applications in the registry.

Each registered application gets its page (`docs/NAME.md`, titled with its
`Application.title`) in the navigation after the guides, and its predictor
a section of the API reference where `api/applications.md` holds the
`<!-- registry: predictors -->` marker; nothing in `mkdocs.yml` or the API
pages names an application.
"""

from __future__ import annotations

MARKER = "<!-- registry: predictors -->"
# The navigation entry the applications' pages follow.
AFTER = "Migrating from tfa.seq2seq"


def _applications():
    from attention_zoo.applications import registry

    return registry.applications()


def on_config(config):
    nav = config["nav"]
    titles = [next(iter(entry)) if isinstance(entry, dict) else entry for entry in nav]
    at = titles.index(AFTER) + 1
    pages = [{app.title: f"{app.name}.md"} for app in _applications()]
    config["nav"] = nav[:at] + pages + nav[at:]
    return config


def on_page_markdown(markdown, page, config, files):
    if MARKER not in markdown:
        return markdown
    sections = "\n\n".join(
        f"::: {app.predictor.__module__}.{app.predictor.__name__}"
        for app in _applications()
    )
    return markdown.replace(MARKER, sections)
