"""The graph halves of the validity checks (`checks.CHECKS`), in
TensorFlow ops, for the SavedModel's graph.

The twins of `data.is_calendar_date` (`calendar_dates`), of
`eras.era_disagreement` (`era_agreement`), of `readings.agrees`
(`numeric_agreement`), of `readings.year_disagreement`
(`year_agreement`) and of `lexicon.month_disagreement`
(`month_agreement`), and `rules_agreement`, the last three at once; with
`mark_months` and `words`, the twins of `text_words`', which the text pass
`graph_text.drop_untaught_words` reads too. Each returns True where the
answer agrees, as `checks` reads the Python rules: the exported model must
judge its answers as the Python predictor does, and plain TensorFlow
(without attention_zoo) must be able to run the judgement.
`tests/applications/dates/test_pass_parity.py` checks every twin.
"""

from __future__ import annotations

from attention_zoo.applications.dates.readings import MAX_DATE, MIN_DATE, PIVOT
from attention_zoo.applications.dates.text_words import MONTH_LETTERS

_SEPARATORS = ("-", "/", r"\. ", r"\.", " ")  # escaped for RE2


def calendar_dates(texts):
    """bool `(B,)`: each string is a real `YYYY-MM-DD` date (in TF ops).

    The graph twin of `data.is_calendar_date` (year 1 to 9999, Gregorian
    leap years).
    """
    import tensorflow as tf

    shaped = tf.strings.regex_full_match(texts, r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
    return tf.logical_and(shaped, _real(*_ymd(texts, shaped)))


def _real(year, month, day):
    import tensorflow as tf

    leap = tf.logical_or(
        tf.logical_and(year % 4 == 0, year % 100 != 0), year % 400 == 0
    )
    lengths = tf.constant([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
    last = tf.gather(lengths, tf.clip_by_value(month - 1, 0, 11))
    last = last + tf.cast(tf.logical_and(leap, month == 2), tf.int32)
    return (year >= 1) & (month >= 1) & (month <= 12) & (day >= 1) & (day <= last)


def _ymd(texts, shaped):
    """int32 year, month and day of `YYYY-MM-DD` strings where `shaped`."""
    import tensorflow as tf

    # to_number fails on text that is not a number: parse a stand-in there.
    safe = tf.where(shaped, texts, tf.constant("2000-01-01"))
    return [
        tf.strings.to_number(tf.strings.substr(safe, start, length), tf.int32)
        for start, length in ((0, 4), (5, 2), (8, 2))
    ]


def _number(texts, applies):
    """int32 value of digit strings where `applies`, 0 elsewhere."""
    import tensorflow as tf

    safe = tf.where(applies & (tf.strings.length(texts) > 0), texts, "0")
    return tf.strings.to_number(safe, tf.int32)


def _candidates(texts):
    """Every candidate reading of each text (`readings.numeric_readings`):
    a list of `(year, year_digits, month, day, applies)` of `(B,)` tensors.

    Integer arithmetic on the parsed digits rather than one parse per
    candidate: the SavedModel runs this on every input it serves.
    """
    import tensorflow as tf

    eight = tf.strings.regex_full_match(texts, r"[0-9]{8}")
    six = tf.strings.regex_full_match(texts, r"[0-9]{6}")
    n = _number(texts, eight | six)
    out = [
        (n // 10**4, 4, n // 100 % 100, n % 100, eight),  # yyyymmdd
        (n % 10**4, 4, n // 10**4 % 100, n // 10**6, eight),  # ddmmyyyy
        (n % 10**4, 4, n // 10**6, n // 10**4 % 100, eight),  # mmddyyyy
        (n % 100, 2, n // 100 % 100, n // 10**4, six),  # ddmmyy
        (n % 100, 2, n // 10**4, n // 100 % 100, six),  # mmddyy
    ]
    # Three groups with one separator repeated. RE2 has no backreference:
    # one alternative per separator, the middle group in whichever matched.
    middle = "|".join(rf"{e}([0-9]{{1,2}}){e}" for e in _SEPARATORS)
    pattern = rf"([0-9]{{1,4}})(?:{middle})([0-9]{{1,4}})\.?"
    grouped = tf.strings.regex_full_match(texts, pattern)
    dots = tf.strings.regex_full_match(
        texts, r"[0-9]{1,4}\. ?[0-9]{1,2}\. ?[0-9]{1,4}\.?"
    )
    groups = tf.strings.regex_replace(
        tf.where(grouped, texts, "0,0,0"), f"^{pattern}$", r"\1,\2\3\4\5\6,\7"
    )
    groups = tf.strings.split(groups, ",").to_tensor("0", shape=[None, 3])
    digits_a = tf.strings.length(groups[:, 0])
    digits_c = tf.strings.length(groups[:, 2])
    a, b, c = (_number(groups[:, i], grouped) for i in range(3))
    year_first = grouped & (digits_a == 4)
    year_last = grouped & (digits_a <= 2) & ((digits_c == 2) | (digits_c == 4))
    out += [
        (a, 4, b, c, year_first),
        (c, digits_c, b, a, year_last),
        (c, digits_c, a, b, year_last & tf.logical_not(dots)),  # dots: d-m-y only
    ]
    return out


def era_agreement(texts):
    """bool `(B,)`: the graph twin of `not eras.era_disagreement(text)` on
    normalized `texts`: neither an era marker before the common era among
    its words nor a minus sign before a number."""
    import tensorflow as tf

    from attention_zoo.applications.dates.eras import ERA_PATTERN, NEGATIVE_YEAR

    # eras.word_view: the words joined by one space, one space at each end.
    joined = tf.strings.strip(tf.strings.regex_replace(texts, r"[^\pL\pM]+", " "))
    joined = tf.strings.join([" ", joined, " "])
    era = tf.strings.regex_full_match(joined, ERA_PATTERN)
    negative = tf.strings.regex_full_match(texts, NEGATIVE_YEAR)
    return tf.logical_not(era | negative)


def numeric_view(texts):
    """The graph twin of `readings.numeric_view`: a text without letters
    loses the non-digits at its ends."""
    import tensorflow as tf

    letters = tf.strings.regex_full_match(texts, r"(?s).*[\pL\pM].*")
    cut = tf.strings.regex_replace(texts, r"^[^0-9]+|[^0-9]+$", "")
    return tf.where(letters, texts, cut)


def numeric_agreement(texts, answers):
    """bool `(B,)`: the graph twin of `readings.agrees(text, answer)`.

    True for a text that is not all-numeric; for an all-numeric one, True
    only when it has exactly one reading and the answer is that reading.
    `texts` are normalized inputs, `answers` the model's ISO strings.
    """
    import tensorflow as tf

    texts = numeric_view(texts)
    numeric = tf.strings.regex_full_match(texts, r"[0-9 ./-]+")
    iso = tf.strings.regex_full_match(answers, r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
    answer = _ymd(answers, iso)
    matches = tf.zeros_like(numeric)
    others = tf.zeros_like(numeric)
    for year, digits, month, day, applies in _candidates(texts):
        # readings._date: a two- or four-digit year, pivoted; 1900-2099.
        year = tf.where(digits == 2, year + tf.where(year >= PIVOT, 1900, 2000), year)
        ok = applies & ((digits == 2) | (digits == 4)) & _real(year, month, day)
        ok = ok & (year >= MIN_DATE.year) & (year <= MAX_DATE.year)
        same = iso & (year == answer[0]) & (month == answer[1]) & (day == answer[2])
        matches = matches | (ok & same)
        others = others | (ok & tf.logical_not(same))
    return tf.logical_not(numeric) | (matches & tf.logical_not(others))


def year_agreement(texts, answers):
    """bool `(B,)`: the graph twin of `not readings.year_disagreement(text,
    answer)`: True for an answer that is not an ISO date; else, for a text
    with four-digit numbers, when the answer's year is one of them; for one
    without, when it writes a number of five digits or more, or the year's
    last two digits as a two-digit number that pivots to the year."""
    import tensorflow as tf

    runs = tf.strings.split(tf.strings.regex_replace(texts, "[^0-9]+", " "))
    lengths = tf.strings.length(runs.flat_values)
    iso = tf.strings.regex_full_match(answers, r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
    safe = tf.where(iso, answers, "0000-00-00")
    year = tf.strings.substr(safe, 0, 4)
    two = tf.strings.substr(safe, 2, 2)
    rows = runs.value_rowids()
    written = any_by_row(lengths == 4, runs)
    grounded = any_by_row(
        (lengths == 4) & tf.equal(runs.flat_values, tf.gather(year, rows)), runs
    )
    two_number = _number(two, iso)
    pivoted = two_number + tf.where(two_number >= PIVOT, 1900, 2000)
    by_two = any_by_row(
        (lengths == 2) & tf.equal(runs.flat_values, tf.gather(two, rows)), runs
    )
    by_two = by_two & tf.equal(pivoted, _number(year, iso))
    compact = any_by_row(lengths > 4, runs)
    return tf.logical_not(iso) | tf.where(written, grounded, compact | by_two)


# A word's mask: bit m-1 for each month m it names, bit DAY_SHIFT+d-1 for
# each day d.
DAY_SHIFT = 16


def word_table(lexicon, days):
    """A TensorFlow table `word -> int64 mask` of a lexicon's words
    (`lexicon.load`) and their days (`lexicon.load_days`): bit m-1 set for
    each month m a word names, bit `DAY_SHIFT` + d-1 for each day d, 0 for
    a neutral word, -1 (the default) for a word the model was not taught.
    Build it outside the served function and track it in the SavedModel."""
    import tensorflow as tf

    keys = list(lexicon)
    masks = [
        sum(1 << (m - 1) for m in lexicon[k])
        | sum(1 << (DAY_SHIFT + d - 1) for d in days.get(k, ()))
        for k in keys
    ]
    return tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(
            tf.constant(keys), tf.constant(masks, tf.int64)
        ),
        default_value=-1,
    )


def month_agreement(texts, answers, table):
    """bool `(B,)`: the graph twin of `not lexicon.month_disagreement(text,
    answer)`, with `table` from `word_table`."""
    found, digits, marked = _words_and_digits(texts)
    return _months_agree(
        found, digits, marked, answers, table, numeric_agreement(digits, answers)
    )


def rules_agreement(texts, answers, table):
    """bool `(B,)`: the numeric, written-year and month-word rules together
    (`numeric_agreement & year_agreement & month_agreement`), with the
    numeric rule's candidates parsed once for the first and the last: the
    SavedModel runs this on every call, one string or a thousand."""
    import tensorflow as tf

    found, digits, marked = _words_and_digits(texts)
    # `digits` is the text itself where it writes no letter, so this is
    # numeric_agreement(texts) on all-numeric texts.
    by_digits = numeric_agreement(digits, answers)
    numeric = tf.strings.regex_full_match(numeric_view(texts), r"[0-9 ./-]+")
    return (
        (tf.logical_not(numeric) | by_digits)
        & year_agreement(texts, answers)
        & _months_agree(found, digits, marked, answers, table, by_digits)
    )


def mark_months(texts):
    """The graph twin of `text_words.mark_months`: `9月`, `9월`, `tháng 9` as
    the word `月i`. RE2 has no lookaround: the character before (or after)
    the number is matched and written back."""
    import tensorflow as tf

    for month, letter in enumerate(MONTH_LETTERS, start=1):
        word = f" 月{letter} "
        texts = tf.strings.regex_replace(
            texts, f"(^|[^0-9])0?{month} ?[月월]", rf"\1{word}"
        )
        texts = tf.strings.regex_replace(
            texts, f"(?:tháng|thg) ?0?{month}([^0-9]|$)", rf"{word}\1"
        )
    return texts


def _words_and_digits(texts):
    """The words of each text (ragged, `text_words.words` of
    `text_words.mark_months`) and its digits (`lexicon.digits`; the text
    itself where it writes no letter)."""
    import tensorflow as tf

    marked = mark_months(texts)
    found = words(marked)
    core = tf.strings.regex_replace(texts, r"[\pL\pM]+", " ")
    core = tf.strings.regex_replace(core, r"^[^0-9]+|[^0-9]+$", "")
    return found, tf.where(found.row_lengths() > 0, core, texts), marked


def words(texts):
    """`text_words.words` of each text: ragged runs of letters and marks."""
    import tensorflow as tf

    return tf.strings.split(tf.strings.regex_replace(texts, r"[^\pL\pM]+", " "))


def any_by_row(flags, ragged):
    """bool `(B,)`: whether any of a row's flags is set, for `flags` over
    the flat values of `ragged`. A segment reduction over the flat values:
    TensorFlow's ragged reductions and broadcasts cost several times more,
    and the SavedModel runs every rule on every call."""
    import tensorflow as tf

    counts = tf.math.unsorted_segment_max(
        tf.cast(flags, tf.int32), ragged.value_rowids(), ragged.nrows()
    )
    return counts > 0


def _day_written(masks, marked, day):
    """The graph twin of `lexicon._day_disagreement(...) == ""`, with the
    words' `masks` (ragged int64, `word_table`) and the answer's `day`."""
    import tensorflow as tf

    runs = tf.strings.split(tf.strings.regex_replace(marked, "[^0-9]+", " "))
    short = tf.strings.length(runs.flat_values) <= 2
    values = tf.strings.to_number(tf.where(short, runs.flat_values, "0"), tf.int32)
    by_number = any_by_row(
        short & tf.equal(values, tf.gather(day, runs.value_rowids())), runs
    )
    # Every day word names the day.
    day_bits = tf.bitwise.right_shift(tf.maximum(masks.flat_values, 0), DAY_SHIFT)
    is_day_word = day_bits != 0
    shift = tf.cast(tf.maximum(tf.gather(day, masks.value_rowids()) - 1, 0), tf.int64)
    names = tf.bitwise.bitwise_and(tf.bitwise.right_shift(day_bits, shift), 1) != 0
    by_words = any_by_row(is_day_word, masks) & tf.logical_not(
        any_by_row(is_day_word & tf.logical_not(names), masks)
    )
    by_words = by_words & (day >= 1)  # no word names a day 0
    return by_number | by_words


def _months_agree(found, digits, marked, answers, table, by_digits):
    import tensorflow as tf

    masks = tf.ragged.map_flat_values(table.lookup, found)
    flat = masks.flat_values
    known = flat >= 0
    month_bits = tf.bitwise.bitwise_and(flat, (1 << 12) - 1)
    names_a_month = any_by_row(known & (month_bits != 0), masks)
    iso = tf.strings.regex_full_match(answers, r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
    # substr fails past a string's end: read the month of ISO answers only.
    safe = tf.where(iso, answers, "0000-00-00")
    month = _number(tf.strings.substr(safe, 5, 2), iso)
    day = _number(tf.strings.substr(safe, 8, 2), iso)
    shift = tf.cast(tf.maximum(tf.gather(month, masks.value_rowids()) - 1, 0), tf.int64)
    names_it = tf.bitwise.bitwise_and(tf.bitwise.right_shift(month_bits, shift), 1)
    is_named = any_by_row(known & (names_it != 0), masks)
    # No month word: the one reading of its digits (lexicon.digits).
    by_digits = tf.strings.regex_full_match(digits, r"[0-9 ./-]+") & by_digits
    writes_letters = found.row_lengths() > 0
    return (
        tf.logical_not(writes_letters)
        | tf.logical_not(iso)
        | tf.where(
            names_a_month,
            is_named & (month >= 1) & _day_written(masks, marked, day),
            by_digits,
        )
    )
