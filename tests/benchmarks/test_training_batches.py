"""The batches file of `benchmarks/training_batches.py`: what
`--prepare` stores is what a GPU machine trains on, and it is data."""

import numpy as np
import pytest

from benchmarks import training_batches


def test_prepared_batches_come_back_unchanged(tmp_path, monkeypatch):
    rng = np.random.default_rng(0)
    made = {
        "translation": (
            {"source_vocab_size": 7, "target_vocab_size": 9},
            [
                (
                    [rng.integers(0, 7, (4, n)), rng.integers(0, 9, (4, n))],
                    rng.integers(0, 9, (4, n)),
                )
                for n in (8, 16)
            ],
        ),
        "captioning": (
            {"feature_shape": [3, 5], "vocab_size": 11},
            [
                (
                    [
                        rng.random((4, 3, 5)).astype("float16"),
                        rng.integers(0, 11, (4, 6)),
                    ],
                    rng.integers(0, 11, (4, 6)),
                )
            ],
        ),
    }
    monkeypatch.setattr(
        training_batches,
        "PREPARE",
        {app: (lambda n, app=app: made[app]) for app in made},
    )
    path = tmp_path / "batches.npz"
    training_batches.prepare(path, list(made), 2, 1)
    loaded = training_batches.load(path)
    assert set(loaded) == set(made)
    for app, (build, batches) in made.items():
        assert loaded[app][0] == build
        assert len(loaded[app][1]) == len(batches)
        for (x, y), (x2, y2) in zip(batches, loaded[app][1]):
            for a, b in zip([*x, y], [*x2, y2]):
                assert a.dtype == b.dtype and np.array_equal(a, b)


def test_a_batches_file_is_read_without_pickles(tmp_path):
    path = tmp_path / "evil.npz"
    np.savez(
        path,
        meta=np.frombuffer(
            b'{"translation": {"build": {}, "batches": 1, "inputs": 1}}', "uint8"
        ),
        **{
            "translation/0/x0": np.array([object()], dtype=object),
            "translation/0/y": np.zeros(1),
        },
    )
    with pytest.raises(ValueError, match="allow_pickle"):
        training_batches.load(path)
