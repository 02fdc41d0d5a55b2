"""CoverageLoss (See et al. 2017, eq. 12-13)."""

from __future__ import annotations

import keras
import numpy as np
import pytest

from attention_zoo.losses import CoverageLoss


def reference_coverage_loss(labels, alphas, strength, pad=0):
    """Mean over sequences of strength * mean over real steps of
    sum_i min(a_i^t, c_i^t), with c^t the attention of the earlier real steps."""
    alphas = np.asarray(alphas, np.float64)
    losses = []
    for b in range(alphas.shape[0]):
        coverage = np.zeros(alphas.shape[2])
        total, steps = 0.0, 0
        for t in range(alphas.shape[1]):
            if labels[b, t] == pad:
                continue
            total += np.minimum(alphas[b, t], coverage).sum()
            coverage = coverage + alphas[b, t]
            steps += 1
        losses.append(strength * total / steps if steps else 0.0)
    return np.mean(losses)


def random_case(seed=0):
    rng = np.random.default_rng(seed)
    labels = rng.integers(1, 9, size=(4, 6))
    labels[0, 4:] = 0
    labels[1, 1:] = 0  # one real step: no earlier attention, no cost
    labels[2, :] = 0  # no real step: costs 0
    alphas = rng.dirichlet(np.ones(5), size=(4, 6)).astype("float32")
    return labels, alphas


@pytest.mark.parametrize("strength", [0.0, 1.0, 2.5])
def test_matches_the_papers_term(strength):
    labels, alphas = random_case()
    np.testing.assert_allclose(
        float(CoverageLoss(strength)(labels, alphas)),
        reference_coverage_loss(labels, alphas, strength),
        rtol=1e-5,
    )


def test_two_positions_by_hand():
    labels = np.array([[4, 4, 4]])
    alphas = np.array([[[0.8, 0.2], [0.6, 0.4], [0.1, 0.9]]], "float32")
    # c^0 = 0: 0; c^1 = (.8, .2): .6 + .2; c^2 = (1.4, .6): .1 + .6.
    expected = (0.0 + 0.8 + 0.7) / 3
    np.testing.assert_allclose(float(CoverageLoss()(labels, alphas)), expected)
    # Attention that never returns to a position costs nothing...
    diagonal = np.eye(3, dtype="float32")[None]
    assert float(CoverageLoss()(labels, diagonal)) == 0.0
    # ... and staying on one position costs 1 per step after the first.
    staying = np.zeros((1, 3, 3), "float32")
    staying[0, :, 0] = 1.0
    np.testing.assert_allclose(float(CoverageLoss(2.0)(labels, staying)), 2 * 2 / 3)


def test_padded_steps_neither_cost_nor_cover():
    labels, alphas = random_case(1)
    loss = CoverageLoss()
    changed = alphas.copy()
    changed[0, 4:] = np.eye(5)[0]  # trailing padding
    changed[2] = 100.0  # a sequence of padding only
    np.testing.assert_allclose(
        float(loss(labels, changed)), float(loss(labels, alphas)), rtol=1e-6
    )
    # A padded step inside a sequence does not add to the coverage either.
    inner = np.array([[3, 0, 3]])
    steps = np.array([[[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]], "float32")
    assert float(loss(inner, steps)) == 0.0
    assert float(loss(np.zeros((2, 3), "int32"), np.ones((2, 3, 4), "float32"))) == 0


def test_pad_token_and_sample_weight():
    labels, alphas = random_case(2)
    shifted = np.where(labels == 0, 7, labels + 10)
    np.testing.assert_allclose(
        float(CoverageLoss(pad_token=7)(shifted, alphas)),
        float(CoverageLoss()(labels, alphas)),
        rtol=1e-6,
    )
    weight = np.array([1.0, 0.0, 0.0, 0.0], "float32")
    np.testing.assert_allclose(
        float(CoverageLoss()(labels, alphas, sample_weight=weight)),
        reference_coverage_loss(labels[:1], alphas[:1], 1.0) / 4,
        rtol=1e-5,
    )


def test_as_the_loss_of_an_attention_output():
    # Alignments downstream of Embedding(mask_zero=True) carry a Keras mask;
    # the padding is read from the labels only, not applied twice.
    rng = np.random.default_rng(3)
    tokens = rng.integers(1, 8, size=(4, 5))
    tokens[0, 2:], tokens[1, 4:] = 0, 0
    inputs = keras.Input((5,), dtype="int32")
    hidden = keras.layers.Embedding(8, 6, mask_zero=True)(inputs)
    alignments = keras.layers.Dense(7, activation="softmax")(hidden)
    model = keras.Model(inputs, alignments)
    model.compile(loss=CoverageLoss(0.5))
    predicted = keras.ops.convert_to_numpy(model(tokens))
    np.testing.assert_allclose(
        model.evaluate(tokens, tokens, batch_size=4, verbose=0),
        reference_coverage_loss(tokens, predicted, 0.5),
        rtol=1e-5,
    )


def test_config_round_trip():
    loss = CoverageLoss(strength=0.5, pad_token=3, name="cov")
    clone = keras.losses.deserialize(keras.losses.serialize(loss))
    assert isinstance(clone, CoverageLoss)
    assert clone.get_config() == loss.get_config()
    assert (clone.strength, clone.pad_token, clone.name) == (0.5, 3, "cov")


@pytest.mark.parametrize("strength", [-1, -0.5, float("nan"), True, "1", None])
def test_bad_strength(strength):
    with pytest.raises(
        ValueError,
        match=rf"CoverageLoss: `strength` must be a float >= 0. "
        rf"Received: strength={strength!r}",
    ):
        CoverageLoss(strength)


@pytest.mark.parametrize("pad_token", [1.5, True, None, "0"])
def test_bad_pad_token(pad_token):
    with pytest.raises(
        ValueError,
        match=rf"`pad_token` must be an integer label id. "
        rf"Received: pad_token={pad_token!r}",
    ):
        CoverageLoss(pad_token=pad_token)


def test_bad_shapes():
    with pytest.raises(
        ValueError, match=r"Received: y_true.shape=\(2, 3\), y_pred.shape=\(2, 3\)"
    ):
        CoverageLoss()(np.ones((2, 3), "int32"), np.ones((2, 3), "float32"))
