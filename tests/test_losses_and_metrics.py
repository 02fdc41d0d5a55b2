import keras
import numpy as np
import pytest

from attention_zoo.losses import (
    DoublyStochasticAttentionLoss,
    MaskedSequenceCrossEntropy,
)
from attention_zoo.metrics import MaskedTokenAccuracy, SequenceExactMatch


def reference_loss(y_true, logits, pad=0, smoothing=0.0):
    logits = logits.astype("float64")
    log_probs = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    v = logits.shape[-1]
    target = np.eye(v)[y_true] * (1 - smoothing) + smoothing / v
    token = -(target * log_probs).sum(-1)
    mask = y_true != pad
    return (token * mask).sum() / mask.sum()


@pytest.mark.parametrize("smoothing", [0.0, 0.1])
def test_loss_is_the_mean_over_real_tokens(smoothing):
    rng = np.random.default_rng(0)
    y_true = rng.integers(1, 6, size=(3, 5))
    y_true[0, 2:] = 0
    y_true[2, 4:] = 0
    logits = rng.normal(size=(3, 5, 6)).astype("float32")
    loss = MaskedSequenceCrossEntropy(label_smoothing=smoothing)
    np.testing.assert_allclose(
        float(loss(y_true, logits)),
        reference_loss(y_true, logits, smoothing=smoothing),
        rtol=1e-5,
    )
    # Changing predictions at padded positions changes nothing.
    logits2 = logits.copy()
    logits2[0, 2:] = 100 * rng.normal(size=logits2[0, 2:].shape)
    np.testing.assert_allclose(
        float(loss(y_true, logits2)), float(loss(y_true, logits)), rtol=1e-6
    )


def test_loss_reductions():
    rng = np.random.default_rng(1)
    y_true = np.array([[3, 1, 0, 0], [2, 2, 4, 0]])  # 5 real tokens of 8
    logits = rng.normal(size=(2, 4, 5)).astype("float32")
    log_probs = logits.astype("float64")
    log_probs = log_probs - np.log(np.exp(log_probs).sum(-1, keepdims=True))
    token = -np.take_along_axis(log_probs, y_true[..., None], -1)[..., 0]
    token = token * (y_true != 0)
    for reduction, expected in (
        ("sum_over_batch_size", token.sum() / 5),
        ("mean", token.sum() / 5),
        ("sum", token.sum()),
        ("none", token),
        (None, token),
    ):
        got = MaskedSequenceCrossEntropy(reduction=reduction)(y_true, logits)
        np.testing.assert_allclose(
            keras.ops.convert_to_numpy(got), expected, rtol=1e-5, err_msg=reduction
        )
    with pytest.raises(
        ValueError, match="Received: reduction='mean_with_sample_weight'"
    ):
        MaskedSequenceCrossEntropy(reduction="mean_with_sample_weight")


def test_loss_from_probabilities_and_all_padding():
    y_true = np.array([[2, 1, 0]])
    probs = np.full((1, 3, 4), 0.25, "float32")
    loss = MaskedSequenceCrossEntropy(from_logits=False)
    np.testing.assert_allclose(float(loss(y_true, probs)), np.log(4), rtol=1e-5)
    assert float(loss(np.zeros((2, 3), "int32"), probs.repeat(2, 0))) == 0.0


def test_loss_errors_and_config():
    with pytest.raises(ValueError, match=r"Received: label_smoothing=1.0"):
        MaskedSequenceCrossEntropy(label_smoothing=1.0)
    with pytest.raises(
        ValueError, match=r"Received: y_true.shape=\(2, 3\), y_pred.shape=\(2, 3\)"
    ):
        MaskedSequenceCrossEntropy()(
            np.zeros((2, 3), "int32"), np.zeros((2, 3), "float32")
        )
    loss = MaskedSequenceCrossEntropy(pad_token=5, label_smoothing=0.2)
    config = keras.losses.serialize(loss)
    clone = keras.losses.deserialize(config)
    assert clone.pad_token == 5 and clone.label_smoothing == 0.2


def test_metrics_ignore_padding_and_accumulate():
    y_true = np.array([[3, 1, 0, 0], [4, 4, 4, 0]])
    y_pred_tokens = np.array([[3, 1, 9, 9], [4, 2, 4, 9]])
    logits = np.eye(10, dtype="float32")[y_pred_tokens]
    accuracy, exact = MaskedTokenAccuracy(), SequenceExactMatch()
    for metric in (accuracy, exact):
        metric.update_state(y_true, logits)
    np.testing.assert_allclose(float(accuracy.result()), 4 / 5)
    np.testing.assert_allclose(float(exact.result()), 1 / 2)
    exact.update_state(y_true[:1], y_pred_tokens[:1])  # tokens work too
    np.testing.assert_allclose(float(exact.result()), 2 / 3)
    exact.reset_state()
    assert float(exact.result()) == 0.0
    weighted = MaskedTokenAccuracy()
    weighted.update_state(y_true, logits, sample_weight=np.array([1.0, 0.0]))
    np.testing.assert_allclose(float(weighted.result()), 1.0)
    # A row of padding only is not a sequence: it counts neither way.
    exact.update_state(
        np.array([[3, 1, 0], [0, 0, 0]]), np.array([[3, 2, 0], [5, 5, 5]])
    )
    assert float(exact.result()) == 0.0
    # One weight per sequence, not per token.
    with pytest.raises(ValueError, match=r"sample_weight.shape=\(2, 4\)"):
        exact.update_state(y_true, logits, sample_weight=np.ones((2, 4)))


def test_loss_and_metrics_in_fit():
    rng = np.random.default_rng(0)
    x = rng.integers(1, 8, size=(32, 6))
    x[:, 4:] = 0
    inputs = keras.Input((6,), dtype="int32")
    h = keras.layers.Embedding(8, 16)(inputs)
    model = keras.Model(inputs, keras.layers.Dense(8)(h))
    model.compile(
        keras.optimizers.Adam(0.05),
        loss=MaskedSequenceCrossEntropy(),
        metrics=[MaskedTokenAccuracy(), SequenceExactMatch()],
    )
    history = model.fit(x, x, epochs=15, verbose=0)
    assert history.history["token_accuracy"][-1] == 1.0
    assert history.history["exact_match"][-1] == 1.0


def test_loss_ignores_a_keras_mask_on_the_predictions():
    # Logits downstream of Embedding(mask_zero=True) carry a Keras mask of the
    # same padding; Keras would weigh the losses with it a second time.
    rng = np.random.default_rng(1)
    x = rng.integers(1, 8, size=(4, 6))
    x[0, 2:], x[1, 4:] = 0, 0
    inputs = keras.Input((6,), dtype="int32")
    h = keras.layers.Embedding(8, 5, mask_zero=True)(inputs)
    model = keras.Model(inputs, keras.layers.Dense(8)(h))
    model.compile(loss=MaskedSequenceCrossEntropy())
    logits = keras.ops.convert_to_numpy(model(x))
    np.testing.assert_allclose(
        model.evaluate(x, x, batch_size=4, verbose=0),
        reference_loss(x, logits),
        rtol=1e-5,
    )


def reference_doubly_stochastic(labels, alphas, strength, pad=0):
    real = (labels != pad).astype("float64")[:, :, None]
    coverage = (alphas.astype("float64") * real).sum(1)  # (B, L)
    penalty = ((1.0 - coverage) ** 2).sum(-1) * (real.sum((1, 2)) > 0)
    return strength * penalty.mean()


@pytest.mark.parametrize("strength", [0.0, 1.0, 2.5])
def test_doubly_stochastic_loss_matches_the_papers_term(strength):
    rng = np.random.default_rng(3)
    labels = rng.integers(1, 9, size=(4, 5))
    labels[0, 3:] = 0
    labels[2, :] = 0  # no real step: no penalty
    alphas = rng.dirichlet(np.ones(6), size=(4, 5)).astype("float32")
    loss = DoublyStochasticAttentionLoss(strength)
    np.testing.assert_allclose(
        float(loss(labels, alphas)),
        reference_doubly_stochastic(labels, alphas, strength),
        rtol=1e-5,
    )
    # Attention at padded steps is ignored.
    changed = alphas.copy()
    changed[0, 3:] = np.eye(6)[0]
    np.testing.assert_allclose(
        float(loss(labels, changed)), float(loss(labels, alphas)), rtol=1e-6
    )


def test_doubly_stochastic_loss_is_zero_for_attention_covering_each_position_once():
    # Six steps over six positions, each position attended exactly once.
    labels = np.ones((1, 6), "int32")
    alphas = np.eye(6, dtype="float32")[None]
    assert float(DoublyStochasticAttentionLoss()(labels, alphas)) == 0.0
    # The same total attention piled on one position costs (1-6)^2 + 5 * 1.
    piled = np.zeros((1, 6, 6), "float32")
    piled[0, :, 0] = 1.0
    assert float(DoublyStochasticAttentionLoss()(labels, piled)) == 30.0


def test_doubly_stochastic_loss_errors_and_config():
    with pytest.raises(ValueError, match=r"Received: strength=-1"):
        DoublyStochasticAttentionLoss(-1)
    with pytest.raises(
        ValueError, match=r"Received: y_true.shape=\(2, 3\), y_pred.shape=\(2, 3\)"
    ):
        DoublyStochasticAttentionLoss()(
            np.ones((2, 3), "int32"), np.ones((2, 3), "float32")
        )
    loss = DoublyStochasticAttentionLoss(strength=0.5, pad_token=3)
    clone = keras.losses.deserialize(keras.losses.serialize(loss))
    assert (clone.strength, clone.pad_token) == (0.5, 3)


@pytest.mark.parametrize(
    "make, kwargs, received",
    [
        (
            MaskedSequenceCrossEntropy,
            dict(label_smoothing="0.1"),
            "label_smoothing='0.1'",
        ),
        (
            MaskedSequenceCrossEntropy,
            dict(label_smoothing=None),
            "label_smoothing=None",
        ),
        (MaskedSequenceCrossEntropy, dict(pad_token="0"), "pad_token='0'"),
        (MaskedSequenceCrossEntropy, dict(pad_token=1.5), "pad_token=1.5"),
        (MaskedSequenceCrossEntropy, dict(from_logits="no"), "from_logits='no'"),
        (DoublyStochasticAttentionLoss, dict(strength="1"), "strength='1'"),
        (DoublyStochasticAttentionLoss, dict(strength=float("inf")), "strength=inf"),
        (DoublyStochasticAttentionLoss, dict(pad_token=None), "pad_token=None"),
        (MaskedTokenAccuracy, dict(pad_token="0"), "pad_token='0'"),
        (SequenceExactMatch, dict(pad_token=0.0), "pad_token=0.0"),
    ],
)
def test_bad_loss_and_metric_arguments_name_the_argument(make, kwargs, received):
    # Before, "0.1" and "1" failed in float() without naming the argument, and a
    # string pad_token or from_logits="no" (read as True) was taken silently.
    (argument,) = kwargs
    with pytest.raises(
        ValueError, match=rf"`{argument}` must be .*Received: {received}"
    ):
        make(**kwargs)


def test_numpy_arguments_of_losses_and_metrics_give_python_numbers_in_the_config():
    import json

    objects = [
        MaskedSequenceCrossEntropy(
            pad_token=np.int64(2),
            label_smoothing=np.float32(0.5),
            from_logits=np.bool_(False),
        ),
        DoublyStochasticAttentionLoss(strength=np.float32(0.5), pad_token=np.int64(2)),
        MaskedTokenAccuracy(pad_token=np.int64(2)),
        SequenceExactMatch(pad_token=np.int64(2)),
    ]
    for item in objects:
        config = item.get_config()
        json.dumps(config)
        assert type(config["pad_token"]) is int and config["pad_token"] == 2


def test_metrics_are_weighted_means_when_the_weights_sum_below_one():
    # result() divided by max(count, 1): 0.2 and 0.1 here before.
    y = np.array([[3, 1, 0], [4, 2, 0]])
    for metric in (MaskedTokenAccuracy(), SequenceExactMatch()):
        metric.update_state(
            y, y.copy(), sample_weight=np.array([0.05, 0.05], "float32")
        )
        assert float(metric.result()) == pytest.approx(1.0)
        metric.reset_state()
        assert float(metric.result()) == 0.0


def test_bool_arguments_of_corpus_scores_and_normalize_strings_are_checked():
    # bool("no") is True: "no" switched tokenization or lowercasing on.
    from attention_zoo.metrics import corpus_scores

    with pytest.raises(
        ValueError, match=r"`tokenized` must be a bool. Received: tokenized='no'"
    ):
        corpus_scores(["a b"], ["a b"], tokenized="no")
    if keras.backend.backend() == "tensorflow":
        from attention_zoo.export import normalize_strings

        with pytest.raises(ValueError, match=r"Received: lowercase='no'"):
            normalize_strings(["A"], lowercase="no")
        with pytest.raises(ValueError, match=r"Received: collapse_whitespace=0"):
            normalize_strings(["A"], collapse_whitespace=0)
