import numpy as np
import pytest

from attention_zoo.plotting import (
    plot_attention,
    plot_image_attention,
    save_attention_plot,
    save_image_attention_plot,
)


def test_image_attention_panels_one_per_word(tmp_path):
    image = np.zeros((32, 32, 3), "uint8")
    weights = np.zeros((4, 6), "float32")  # 4 steps over a 2 x 3 grid
    weights[np.arange(4), [0, 2, 4, 5]] = 1.0
    fig = plot_image_attention(image, ["a", "red", "circle"], weights, (2, 3))
    titled = [ax for ax in fig.axes if ax.get_title()]
    assert [ax.get_title() for ax in titled] == ["input", "a", "red", "circle"]
    overlay = titled[3].get_images()[1]  # "circle": attention on cell (1, 1)
    grid = overlay.get_array()
    assert grid.shape == (2, 3) and grid[1, 1] == 1.0 and grid.sum() == 1.0
    assert overlay.get_extent() == [0, 32, 32, 0]  # stretched over the image
    path = save_image_attention_plot(tmp_path / "p.png", image, ["a"], weights, (2, 3))
    assert path.read_bytes()[:4] == b"\x89PNG"


def test_image_attention_bad_shapes():
    image = np.zeros((8, 8, 3), "uint8")
    with pytest.raises(ValueError, match=r"Received: weights.shape=\(2, 5\)"):
        plot_image_attention(image, ["a"], np.zeros((2, 5)), (2, 3))
    with pytest.raises(ValueError, match=r"2 rows for 3 words"):
        plot_image_attention(image, ["a", "b", "c"], np.zeros((2, 6)), (2, 3))
    with pytest.raises(ValueError, match=r"Received: image.shape=\(8, 8\)"):
        plot_image_attention(image[..., 0], ["a"], np.zeros((2, 6)), (2, 3))


def test_attention_heatmap_labels_and_bad_shapes(tmp_path):
    weights = np.eye(3, 4, dtype="float32")
    fig = plot_attention(weights, ["a", " ", "c", "d"], ["x", "y"])
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "' '", "c", "d"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["x", "y"]
    assert ax.get_images()[0].get_array().shape == (2, 4)  # cut to the labels
    path = save_attention_plot(tmp_path / "a.png", weights, "abcd", "xyz")
    assert path.read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match=r"\(4, 4\) at least. Received: weights"):
        plot_attention(weights, "abcd", "wxyz")  # a label row without weights
    with pytest.raises(ValueError, match=r"Received: weights.shape=\(3,\)"):
        plot_attention(np.zeros(3), "abc", "x")


def test_plots_leave_the_matplotlib_backend_and_pyplot_alone(tmp_path):
    import matplotlib
    import matplotlib.pyplot as plt

    backend = matplotlib.get_backend()
    matplotlib.use("svg")  # a user's choice, as a notebook or GUI makes one
    try:
        figures = plt.get_fignums()
        plot_attention(np.eye(2), "ab", "xy")
        plot_image_attention(
            np.zeros((8, 8, 3), "uint8"), ["a"], np.ones((1, 4)), (2, 2)
        )
        save_attention_plot(tmp_path / "a.png", np.eye(2), "ab", "xy")
        assert matplotlib.get_backend() == "svg"
        assert plt.get_fignums() == figures  # nothing left open in pyplot
    finally:
        matplotlib.use(backend)
