"""What `attention-zoo --help` and `attention-zoo summarization --help` show of the
summarizer: imports nothing of it, so they answer without Keras (`registry.listings`).
"""

from attention_zoo.applications.common.application import CommandListing

LISTING = CommandListing(
    name="summarization",
    help="headline summarization with copy attention (offline: Debian package "
    "descriptions)",
    description="Train and use a summarizer with copy attention (the "
    "pointer-generator of See et al. 2017): it writes a word of its vocabulary "
    "or copies one of the text. The offline corpus is the descriptions of the "
    "Debian packages apt knows (long description -> synopsis).",
    tasks={
        "train": "train a summarizer",
        "evaluate": "ROUGE-1/2/L, names kept and copy rate on the run's test texts",
        "predict": "summarize texts: arguments, a file or standard input",
        "plot": "attention heat map PNGs with p_gen per summary word",
        "export": "write a SavedModel that summarizes raw strings",
    },
)
