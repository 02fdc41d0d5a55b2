"""The graph halves of the text passes (`passes.PASSES`), in TensorFlow
ops on `(B,)` strings: each the twin of the Python half of the same name
(`text`, `text_words.drop_untaught_words`), for the SavedModel, which plain
TensorFlow runs without attention_zoo. TensorFlow is imported lazily."""

from __future__ import annotations

from attention_zoo.applications.dates import text as dates_text
from attention_zoo.applications.dates import text_spellings as spellings
from attention_zoo.applications.dates.graph_rules import any_by_row, mark_months, words


def rewrite_rows(has, texts, rewrite):
    """`texts` with `rewrite` run on the strings where `has` only, the
    others as they are; for a batch where none has, `rewrite` is not run at
    all. Most batches hold nothing a pass rewrites, and its regular
    expressions would cost every call otherwise."""
    import tensorflow as tf

    def run():
        rows = tf.where(has)
        return tf.tensor_scatter_nd_update(
            texts, rows, rewrite(tf.gather_nd(texts, rows))
        )

    return tf.cond(tf.reduce_any(has), run, lambda: texts)


def _holds(texts, pattern):
    import tensorflow as tf

    return tf.strings.regex_full_match(texts, f"(?s).*{pattern}.*")


def ascii_digits(texts):
    """`text.ascii_digits`."""
    from attention_zoo.export import ascii_digits as fold

    return fold(texts, dates_text.NATIVE_DIGITS)


def roman_months(texts):
    """`text.roman_months` (before lower-casing): its passes, on the
    strings that hold a candidate."""
    import tensorflow as tf

    def passes(out):
        for pattern, replacement in dates_text.ROMAN_MONTH_PASSES:
            out = tf.strings.regex_replace(out, pattern, replacement)
        return out

    return rewrite_rows(_holds(texts, dates_text.ROMAN_CANDIDATE), texts, passes)


def cjk_numerals(texts):
    """`text.cjk_numerals`: its passes in RE2, on the strings that hold a
    numeral outside a weekday name (`text.has_cjk_numeral`)."""
    import tensorflow as tf

    names_out = tf.strings.regex_replace(texts, dates_text.CJK_WEEKDAY, "")

    def passes(out):
        for i, numeral in enumerate(dates_text.CJK_WEEKDAYS):
            stand_in = chr(dates_text.CJK_STAND_IN + i)
            out = tf.strings.regex_replace(
                out, f"({dates_text.CJK_WEEKDAY_PREFIX}){numeral}", rf"\1{stand_in}"
            )
        for pattern, replacement in dates_text.CJK_TENS:
            out = tf.strings.regex_replace(out, pattern, replacement)
        for digit, numerals in enumerate(dates_text.CJK_DIGITS):
            out = tf.strings.regex_replace(out, f"[{numerals}]", str(digit))
        for i, numeral in enumerate(dates_text.CJK_WEEKDAYS):
            out = tf.strings.regex_replace(
                out, chr(dates_text.CJK_STAND_IN + i), numeral
            )
        return out

    return rewrite_rows(_holds(names_out, dates_text.CJK_NUMERAL), texts, passes)


def japanese_era(texts):
    """`text.japanese_era`: the text cut around its first era year, whose
    number is read, offset and written back."""
    import tensorflow as tf

    whole = f"(?s)^(.*?){dates_text.JAPANESE_ERA_YEAR}(.*)$"

    def read(texts):  # every one holds an era year: every part parses
        def part(i):
            return tf.strings.regex_replace(texts, whole, rf"\{i}")

        number = part(3)
        number = tf.strings.to_number(tf.where(number == "元", "1", number), tf.int32)
        era = part(2)
        offset = tf.zeros_like(number)
        for name, start in dates_text.JAPANESE_ERAS.items():
            offset = tf.where(era == name, start, offset)
        year = tf.strings.as_string(offset + number)
        return tf.strings.join([part(1), year, "年", part(4)])

    return rewrite_rows(tf.strings.regex_full_match(texts, whole), texts, read)


def arabic_marks(texts):
    """`text.arabic_marks`."""
    import tensorflow as tf

    return tf.strings.regex_replace(texts, dates_text.ARABIC_MARKS, "")


def lower_case(texts):
    """`text.lower_case` (NUL and invalid UTF-8 included:
    `export.normalize_strings`)."""
    from attention_zoo.export import normalize_strings

    return normalize_strings(texts, collapse_whitespace=False)


def whitespace(texts):
    """`text.whitespace`."""
    from attention_zoo.export import normalize_strings

    return normalize_strings(texts, lowercase=False)


def drop_label(texts):
    """`text.drop_label`: a leading label the model was not taught removed."""
    import tensorflow as tf

    labels = "|".join(dates_text.TAUGHT_LABELS)
    taught = f"^({labels}) ?{dates_text.LABEL_END} ?.+$"
    drop = tf.logical_and(
        tf.strings.regex_full_match(texts, dates_text.FORM_LABEL),
        tf.logical_not(tf.strings.regex_full_match(texts, taught)),
    )
    return rewrite_rows(
        drop,
        texts,
        lambda texts: tf.strings.regex_replace(texts, dates_text.FORM_LABEL, r"\2"),
    )


def drop_untaught_words(texts, table):
    """`text_words.drop_untaught_words`, with `table` from
    `graph_rules.word_table` (-1: a word not taught)."""
    import tensorflow as tf

    from attention_zoo.applications.dates.text_words import LEADING_WORDS, ONE_NUMBER

    def untaught(texts):
        found = words(texts)
        return any_by_row(table.lookup(found.flat_values) < 0, found)

    def drop(texts):
        head = tf.strings.regex_replace(texts, LEADING_WORDS, r"\1")
        rest = tf.strings.regex_replace(texts, LEADING_WORDS, r"\2")
        keep = (
            tf.strings.regex_full_match(rest, ONE_NUMBER)
            | untaught(mark_months(rest))
            | tf.logical_not(untaught(head))
        )
        return tf.where(keep, texts, rest)

    # Only the rows with words and a comma before a digit (a weekday before
    # a date, mostly): `mark_months` is twelve passes.
    return rewrite_rows(tf.strings.regex_full_match(texts, LEADING_WORDS), texts, drop)


def cjk_day_marker(texts):
    """`text_spellings.cjk_day_marker`."""
    import tensorflow as tf

    return tf.strings.regex_replace(texts, *spellings.CJK_DAY_MARKER)


def japanese_particle(texts):
    """`text_spellings.japanese_particle`."""
    import tensorflow as tf

    return tf.strings.regex_replace(texts, *spellings.JAPANESE_PARTICLE)


def month_spellings(texts):
    """`text_spellings.month_spellings`: its passes, on the strings that
    hold a candidate."""
    import tensorflow as tf

    def passes(out):
        for pattern, replacement in spellings.month_spelling_passes():
            out = tf.strings.regex_replace(out, pattern, replacement)
        return out

    has = _holds(texts, f"(?:{spellings.month_spelling_candidate()})")
    return rewrite_rows(has, texts, passes)


def numeric_spaces(texts):
    """`text_spellings.numeric_spaces`."""
    import tensorflow as tf

    numeric = tf.strings.regex_full_match(texts, spellings.NUMERIC)
    spaced = tf.strings.regex_replace(texts, *spellings.NUMERIC_SPACES)
    return tf.where(numeric, spaced, texts)
