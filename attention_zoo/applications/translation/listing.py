"""What `attention-zoo --help` and `attention-zoo translation --help` show of the
translator: imports nothing of it, so they answer without Keras (`registry.listings`).
"""

from attention_zoo.applications.common.application import CommandListing

LISTING = CommandListing(
    name="translation",
    help="neural machine translation (offline: English-Spanish Bible verses)",
    description="Train and use an encoder-decoder translation model with "
    "attention. The offline corpus is English-Spanish Bible verses from the "
    "Debian packages sword-text-web and sword-text-sparv.",
    tasks={
        "train": "train a model on a corpus",
        "evaluate": "sacreBLEU BLEU and chrF on the run's test pairs",
        "translate": "translate sentences: arguments, a file or standard input",
        "plot": "attention heatmap PNGs for the given sentences",
        "export": "write a SavedModel that translates raw strings",
        "shortlist": "learn a run's vocabulary shortlist (train --shortlist does "
        "it after training)",
    },
)
