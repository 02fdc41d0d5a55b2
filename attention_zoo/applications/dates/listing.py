"""What `attention-zoo --help` and `attention-zoo dates --help` show of the
date normalizer: imports nothing of it, so they answer without Keras (`registry.listings`).
"""

from attention_zoo.applications.common.application import CommandListing

LISTING = CommandListing(
    name="dates",
    help="date normalization: '3rd of May 1979' -> 1979-05-03",
    description="Normalize human-written dates (English, French, German, "
    "Spanish, Italian, Portuguese, Dutch) to ISO 8601 with an attention "
    "model that says 'not a date' when it does not know.",
    tasks={
        "train": "generate dates offline and train a model",
        "evaluate": "exact match on the run's test dates",
        "predict": "normalize dates: arguments, a file or standard input",
        "plot": "attention heatmap PNGs for the given dates",
        "export": "write a SavedModel that serves raw strings",
    },
    beam_search=False,
)
