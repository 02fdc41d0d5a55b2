import numpy as np

from attention_zoo.applications import demo


def test_demo_learns_the_reversal_alignment(capsys):
    result = demo.run(epochs=4, length=6, seed=0)
    assert result["accuracy"] > 0.95
    attention = result["attention"]  # (n, Ty, Tx)
    peaks = attention.argmax(-1)
    expected = np.arange(6)[::-1]
    assert (peaks == expected).mean() > 0.95
    assert "peak at input" in capsys.readouterr().out
