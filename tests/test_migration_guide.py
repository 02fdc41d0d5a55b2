"""The attention-zoo examples of docs/migrating_from_tfa.md run as written.

Convention of the page: a fence opened with exactly "```python" is
attention-zoo code and runs; a fence titled "tfa (before)" is the old
tensorflow_addons code and does not. The runnable blocks run in order in one
namespace (later sections reuse earlier names) and check themselves with
asserts, so a wrong example fails here on every backend.
"""

import tempfile
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "migrating_from_tfa.md"
TFA_FENCE = '```python title="tfa (before)"'


def fenced_blocks():
    """`(fence line, code, section heading)` of every Python block."""
    blocks, section, fence, code = [], None, None, []
    for line in PAGE.read_text().splitlines():
        if fence is None and line.startswith("#"):
            section = line.lstrip("#").strip()
        elif fence is None and line.startswith("```python"):
            fence, code = line, []
        elif fence is not None and line == "```":
            blocks.append((fence, "\n".join(code) + "\n", section))
            fence = None
        elif fence is not None:
            code.append(line)
    return blocks


def runnable_blocks():
    return [
        (code, section)
        for fence, code, section in fenced_blocks()
        if fence == "```python"
    ]


def test_every_python_block_is_marked():
    """A fence is either runnable or titled as tfa code; tfa code is never run,
    and the runnable code never imports TensorFlow (it must run on all three
    backends)."""
    blocks = fenced_blocks()
    fences = {fence for fence, _, _ in blocks}
    assert fences == {"```python", TFA_FENCE}, fences
    for fence, code, section in blocks:
        if fence == TFA_FENCE:
            assert "tfa." in code, f"a tfa block without tfa code in {section!r}"
        else:
            assert "import tensorflow" not in code, section
            assert "assert" in code, f"a block that checks nothing in {section!r}"


def test_every_tfa_piece_has_a_replacement():
    sections = {section for _, section in runnable_blocks()}
    for name in (
        "Attention mechanisms",
        "AttentionWrapper",
        "Several mechanisms",
        "sequence_loss",
        "model.fit",
        "GreedyEmbeddingSampler",
        "BeamSearchDecoder",
        "tile_batch",
    ):
        assert any(name in s for s in sections), name


def test_examples_run(tmp_path, monkeypatch):
    # The saving example writes under tempfile.mkdtemp(): keep it in tmp_path.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    namespace = {}
    for i, (code, section) in enumerate(runnable_blocks()):
        exec(compile(code, f"{PAGE.name} block {i} ({section})", "exec"), namespace)
    assert list(tmp_path.glob("*/translator.keras"))
