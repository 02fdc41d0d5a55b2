"""Readable translations: unknown-word replacement, truecasing, spacing."""

import numpy as np
import pytest

from attention_zoo.applications.translation import postprocess
from attention_zoo.applications.translation.postprocess import (
    Truecaser,
    cased_tokens,
    detokenize,
    readable_tokens,
    starts_sentence,
)


def test_detokenize_follows_spanish_spacing():
    assert detokenize(["y", "jesús", "lloró", "."]) == "y jesús lloró."
    tokens = "¿ qué te he hecho , que me has herido ? ¡ ay !".split()
    assert detokenize(tokens) == "¿qué te he hecho, que me has herido? ¡ay!"
    assert detokenize("dijo : ( esto ) ; « sí » …".split()) == "dijo: (esto); «sí»…"
    assert detokenize(["hadad", "-", "ezer"]) == "hadad-ezer"
    assert detokenize([]) == ""


def test_cased_tokens_align_with_the_models_tokens():
    from attention_zoo.applications.common.text import tokenize

    for text in ["JESUS wept.", "¿Qué?", "  ", "Naomi,Ruth İs 你好!", "a\u2028b"]:
        assert [t.lower() for t in cased_tokens(text)] == tokenize(text)
    assert cased_tokens("Naomi, Ruth!") == ["Naomi", ",", "Ruth", "!"]


def test_truecaser_learns_forms_inside_sentences():
    truecaser = Truecaser.learn(
        [
            "Y Jesús lloró.",
            "Entonces Jesús dijo: Señor. Y el Señor habló al Señor.",
            "Y el señor de la casa vino.",
            "Dijo: Produzca la tierra. Y la tierra produjo.",
            "¿Quién es Jesús?",
            "La casa de Dios.",
        ]
    )
    assert truecaser.case("jesús") == "Jesús"
    assert truecaser.case("señor") == "Señor"  # 2 Señor to 1 señor
    # Seen only at sentence starts ("Y", "Entonces", "Quién"): lower-case.
    assert truecaser.case("y") == "y" and truecaser.case("quién") == "quién"
    assert "y" not in truecaser.forms and "la" not in truecaser.forms
    assert truecaser.case("nunca") == "nunca"
    assert truecaser.case("produzca") == "produzca"  # only seen after ":"
    tie = Truecaser.learn(["a Roca roca"])
    assert tie.case("roca") == "roca"
    assert truecaser.capitalize_starts
    # Targets that never capitalise their starts (number words) stay so.
    numbers = Truecaser.learn(["ciento dos", "mil", "¿tres?", "42 Roma"])
    assert not numbers.capitalize_starts
    source = cased_tokens("x y")
    out = readable_tokens(["ciento", "roma"], np.ones((2, 2)), source, numbers)
    assert out == ["ciento", "Roma"]


def test_truecaser_saves_and_loads(tmp_path):
    truecaser = Truecaser({"jesús": "Jesús"}, capitalize_starts=False)
    truecaser.save(tmp_path / "t.json")
    loaded = Truecaser.load(tmp_path / "t.json")
    assert loaded.forms == {"jesús": "Jesús"} and not loaded.capitalize_starts
    missing = Truecaser.load(tmp_path / "missing.json")
    assert missing.forms == {} and missing.capitalize_starts


def test_sentence_starts():
    tokens = ["¿", "qué", "?", "él", "dijo", ".", "¡", "ay", "!", "(", "no", ")"]
    starts = [i for i in range(len(tokens)) if starts_sentence(tokens, i)]
    assert starts == [0, 1, 3, 6, 7, 9, 10]


def test_readable_tokens_replace_unknown_words_from_attention():
    source = cased_tokens("Elimelech and Naomi wept 42 times.")
    attention = np.zeros((6, len(source)), "float32")
    for step, position in enumerate([0, 1, 2, 3, 4, 6]):
        attention[step, position] = 1.0
    tokens = ["<unk>", "y", "<unk>", "lloraron", "<unk>", "."]
    truecaser = Truecaser({"lloraron": "LLoraron"})
    out = readable_tokens(tokens, attention, source, truecaser)
    assert out == ["Elimelech", "y", "Naomi", "LLoraron", "42", "."]
    assert detokenize(out) == "Elimelech y Naomi LLoraron 42."
    plain = readable_tokens(tokens, attention, source, truecaser, False, False)
    assert plain == tokens
    only_case = readable_tokens(["y", "jesús", "lloró"], attention, source, None)
    assert only_case == ["Y", "jesús", "lloró"]
    # An empty source has nothing to copy.
    assert readable_tokens(["<unk>"], np.zeros((1, 0)), [], None) == ["<unk>"]


def test_unknown_words_are_copied_within_their_limits():
    source = ["PH_PRINTF_1", "gfx=PH_PRINTF_2", "Open", "files"]
    # Every step attends to the placeholder most, then to the next token.
    attention = np.array([[0.5, 0.3, 0.2, 0.0]] * 4, "float32")
    tokens = ["<unk>"] * 4
    free = readable_tokens(tokens, attention, source, None, truecase=False)
    assert free == ["PH_PRINTF_1"] * 4
    limited = readable_tokens(
        tokens, attention, source, None, truecase=False, limits=[0, 1, None, 0]
    )
    # Never the first, once the second, then the best token left each time.
    assert limited == ["gfx=PH_PRINTF_2", "Open", "Open", "Open"]
    # An <unk> with no token left to become is dropped.
    none_left = readable_tokens(
        ["<unk>", "y"], attention, source, None, truecase=False, limits=[0, 0, 0, 0]
    )
    assert none_left == ["y"]


@pytest.mark.parametrize("token", ["ß", "éste", "1x", ""])
def test_capitalize(token):
    assert postprocess.capitalize(token) == token[:1].upper() + token[1:]


@pytest.mark.tf_only
@pytest.mark.parametrize("capitalize_starts", [True, False])
def test_graph_readable_text_matches_python(capitalize_starts):
    tf = pytest.importorskip("tensorflow")
    from attention_zoo.applications.common.text import SPECIALS, UNK
    from attention_zoo.applications.translation.export import readable_text
    from attention_zoo.export.text import StringTable, TokenTables

    words = ["y", "jesús", "lloró", ".", "¿", "qué", "?", ",", "(", ")", "señor"]
    vocabulary = SPECIALS + words
    output = [t if i >= 4 or t == UNK else "" for i, t in enumerate(vocabulary)]
    tables = TokenTables(vocabulary, output, unknown_id=1)
    truecaser = Truecaser({"jesús": "Jesús", "señor": "Señor"}, capitalize_starts)
    cases = StringTable(truecaser.forms)
    rng = np.random.default_rng(0)
    sources = ["Naomi wept, ÉLIMELECH 42.", "¿Who?", "x", "a b c d e f"]
    # Hostile sources to copy from: NUL (which tf.strings.upper reads as
    # the end of its input), direction marks, wide and odd characters.
    sources += ["\x00a B\x00", "\u200fÁbc\u200e ١٢", "ＡＢ ǅx ß", "🙂 ¡ ¿ «"]
    cased = [cased_tokens(s) for s in sources]
    width = 8
    ids = rng.integers(1, len(vocabulary), (len(sources), 10))
    ids[:, 0] = 1  # an <unk> to copy in every row
    ids[1, 6:] = 3  # <end>
    ids[2, 3] = 0  # padding ends the row too
    ids[4:, 1] = 1  # a second <unk> in the hostile rows
    attention = rng.random((len(sources), 10, width)).astype("float32")
    lengths = np.array([len(c) for c in cased], "int32")
    # object: a NumPy string array drops trailing NULs ("B\x00").
    dense = np.array([c + [""] * (width - len(c)) for c in cased], dtype=object)
    got = readable_text(
        tf.constant(ids),
        tf.constant(attention),
        tf.constant(lengths),
        tf.constant(dense),
        tables,
        cases,
        capitalize_starts,
    ).numpy()
    for row, text in enumerate(got):
        steps = []
        for step, i in enumerate(ids[row]):
            if i in (0, 3):
                break
            if i != 2:  # <start>: skipped, its attention row with it
                steps.append(step)
        tokens = [vocabulary[ids[row, s]] for s in steps]
        expected = postprocess.readable_text(
            tokens, attention[row][steps], cased[row], truecaser
        )
        assert expected == detokenize(
            readable_tokens(tokens, attention[row][steps], cased[row], truecaser)
        )
        assert text.decode("utf-8") == expected
        assert UNK not in expected
