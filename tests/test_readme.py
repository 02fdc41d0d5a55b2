"""The Python examples in README.md and docs/index.md run as written."""

import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


def python_blocks(path):
    """Python examples, except those that need a trained run folder (the
    SavedModel example of README.md; tests/applications covers what it shows)
    and the preset examples (run below, and every shipped preset on every
    backend in tests/presets)."""
    blocks = re.findall(r"```python\n(.*?)```", path.read_text(), re.S)
    return [b for b in blocks if "runs/" not in b and "from_preset" not in b]


@pytest.mark.parametrize("document", ["README.md", "docs/index.md"])
def test_examples_run(document):
    blocks = python_blocks(ROOT / document)
    assert blocks, f"{document} has no Python example"
    namespace = {}
    for block in blocks:
        exec(compile(block, document, "exec"), namespace)


def test_readme_model_masks_padding():
    namespace = {}
    (block,) = [b for b in python_blocks(ROOT / "README.md") if "model = " in b][:1]
    exec(block, namespace)
    model = namespace["model"]
    source = np.array([[3, 4, 0, 0], [5, 6, 7, 8]])
    target = np.random.default_rng(0).normal(size=(2, 3, 32)).astype("float32")
    logits, weights = model.predict([source, target], verbose=0)
    assert logits.shape == (2, 3, 1000) and weights.shape == (2, 3, 4)
    assert (weights[0, :, 2:] == 0).all()
    np.testing.assert_allclose(weights.sum(-1), 1.0, atol=1e-5)


@pytest.mark.tf_only
def test_readme_preset_examples_print_what_readme_shows(capsys):
    """The quoted output under each preset example is the example's output."""
    text = (ROOT / "README.md").read_text()
    examples = re.findall(
        r"```python\n((?:(?!```).)*?from_preset.*?)```\n\n```text\n(.*?)```", text, re.S
    )
    assert len(examples) == 4  # one per shipped preset
    for block, shown in examples:
        exec(compile(block, "README.md", "exec"), {})
        assert capsys.readouterr().out == shown


def test_readme_reads_in_five_minutes():
    """At most about 250 lines: the rest lives in docs/ and is linked."""
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines, over 250"


def test_readme_pictures_are_in_the_repository():
    """Each image the README shows is a file of the repository, linked by a
    relative path (GitHub and the sdist show it; MANIFEST.in ships it)."""
    if not (ROOT / "docs" / "img").is_dir():
        pytest.skip("the README copied away from the repository's docs/img")
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", (ROOT / "README.md").read_text())
    assert images, "README.md shows no picture"
    manifest = (ROOT / "MANIFEST.in").read_text()
    for image in images:
        assert "://" not in image and (ROOT / image).is_file(), image
        assert image in manifest, f"{image} is not in MANIFEST.in (the sdist)"
