"""Users' tab-separated pairs files (`--pairs`, `--validation-pairs`,
`--test-pairs`) of the text applications: their rows, and what a training
run checks of its held-out pairs before it starts."""

from __future__ import annotations

import csv
import io
import sys

# Held-out pairs that are training pairs: refused from this share on (the
# validation or test file is mostly the training file), warned of below.
MOSTLY_SHARED = 0.5


def tab_rows(text: str, path):
    """`(line number, row)` per row of the tab-separated `text` read from
    `path` (no quoting: a `"` is text).

    Raises:
        ValueError: naming the file and the line, for a field longer than
            the csv module's limit (`csv.field_size_limit()`, 131,072
            characters) or a row it cannot read.
    """
    rows = csv.reader(
        io.StringIO(text, newline=""), delimiter="\t", quoting=csv.QUOTE_NONE
    )
    while True:
        try:
            row = next(rows)
        except StopIteration:
            return
        except csv.Error as error:
            limit = csv.field_size_limit()
            if "field limit" in str(error):
                raise ValueError(
                    f"{path}, line {rows.line_num}: a field longer than "
                    f"{limit:,} characters, the most a pairs file's field may "
                    "hold; cut the text"
                ) from None
            raise ValueError(f"{path}, line {rows.line_num}: {error}") from None
        yield rows.line_num, row


def check_held_out(training_keys, held_out, what: str, flag: str) -> None:
    """Refuse held-out pairs that are mostly training pairs, warn of some.

    Args:
        training_keys: a set of the training pairs' keys (their texts, or
            source sentences).
        held_out: `{split name: [key of each held-out pair]}`.
        what: what a key is, for the messages ("text").
        flag: `{split name: the flag that gave it}` for the splits read
            from a file of their own.

    Raises:
        ValueError: naming the split, its flag and the counts, when at
            least `MOSTLY_SHARED` of the pairs of a split read from a file
            of its own (`flag`) are training pairs.
    """
    for name, keys in held_out.items():
        shared = sum(key in training_keys for key in keys)
        if not shared:
            continue
        given = f" ({flag[name]})" if name in flag else ""
        counts = f"{shared:,} of the {len(keys):,} {name} pairs{given}"
        # A split the corpus made (a tfds dataset's own, a random split)
        # is the dataset's choice: warned of; a file the user gave is
        # refused when it is mostly the training pairs.
        if name in flag and shared >= MOSTLY_SHARED * len(keys):
            raise ValueError(
                f"{counts} have a {what} that is also a training pair's: "
                "held-out pairs must be other pairs than the training ones "
                "(scores on them would measure memory, and early stopping "
                "would never stop)"
            )
        print(
            f"warning: {counts} have a {what} that is also a training pair's "
            "(scores on them measure memory)",
            file=sys.stderr,
        )
