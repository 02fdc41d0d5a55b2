import os
import time

import pytest

from attention_zoo.applications.translation import data
from attention_zoo.cli import main

SWORD_INSTALLED = all(
    os.path.exists(f"{data.SWORD_PATH}/mods.d/{m}.conf")
    for m in data.SWORD_MODULES.values()
)


def test_tsv_pairs_ignore_extra_columns_and_malformed_lines(tmp_path, capsys):
    path = tmp_path / "pairs.tsv"
    path.write_text(
        "Go.\tVe.\tCC-BY 2.0 (France) Attribution: tatoeba.org\n"
        "no tab here\n"
        "\n"
        "\tempty source\n"
        "Hi.\tHola.\n",
        encoding="utf-8",
    )
    pairs = data.read_tsv_pairs(path)
    assert [(p.source, p.target) for p in pairs] == [("Go.", "Ve."), ("Hi.", "Hola.")]
    # The dropped lines are counted and named; the blank one is no loss.
    assert capsys.readouterr().err == (
        f"{path}: skipped 2 line(s) without two non-empty tab-separated "
        "columns (line 2, line 4)\n"
    )
    assert len(data.read_tsv_pairs(path, max_pairs=1)) == 1


def test_held_out_pairs_that_are_training_pairs_are_refused(tmp_path, capsys):
    from attention_zoo.applications.translation.config import TrainConfig
    from attention_zoo.applications.translation.corpus import load_corpus

    path = tmp_path / "pairs.tsv"
    path.write_text("".join(f"s{i}\tt{i}\n" for i in range(40)), encoding="utf-8")
    config = TrainConfig(
        corpus="tsv", pairs=str(path), validation_pairs=str(path), test_pairs=str(path)
    )
    with pytest.raises(ValueError) as error:
        load_corpus(config)
    assert str(error.value).startswith(
        "40 of the 40 validation pairs (--validation-pairs) have a source sentence "
        "that is also a training pair's: held-out pairs must be other pairs"
    )
    # On the command line: one line, before training.
    output = tmp_path / "run"
    argv = ["translation", "train", "--pairs", str(path), "--output", str(output)]
    assert main([*argv, "--validation-pairs", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    # (two of the pairs are held out for the test split the file leaves)
    assert "38 of the 40 validation pairs (--validation-pairs) have" in err
    assert "\n" not in err and not output.exists()


def test_held_out_pairs_partly_training_pairs_are_warned_of(tmp_path, capsys):
    from attention_zoo.applications.translation.config import TrainConfig
    from attention_zoo.applications.translation.corpus import load_corpus

    path, partly = tmp_path / "pairs.tsv", tmp_path / "partly.tsv"
    path.write_text("".join(f"s{i}\tt{i}\n" for i in range(40)), encoding="utf-8")
    partly.write_text("".join(f"s{i}\tt{i}\n" for i in range(35, 75)), "utf-8")
    config = TrainConfig(corpus="tsv", pairs=str(path), test_pairs=str(partly))
    train, validation, test = load_corpus(config)
    assert len(test) == 40
    shared = sum(p.source in {t.source for t in train} for p in test)
    assert 0 < shared <= 5
    assert capsys.readouterr().err.splitlines() == [
        f"warning: {shared} of the 40 test pairs (--test-pairs) have a source "
        "sentence that is also a training pair's (scores on them measure memory)"
    ]


def test_a_field_over_the_csv_limit_is_named_with_its_file_and_line(tmp_path):
    path = tmp_path / "big.tsv"
    path.write_text("Go.\tVe.\n" + "x" * 150_000 + "\tB\n", encoding="utf-8")
    with pytest.raises(
        ValueError, match=r"big.tsv, line 2: a field longer than 131,072"
    ):
        data.read_tsv_pairs(path)


def test_tsv_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="pairs file not found"):
        data.read_tsv_pairs(tmp_path / "missing.tsv")
    (tmp_path / "empty.tsv").write_text("just text\n")
    with pytest.raises(ValueError, match="no tab-separated pairs"):
        data.read_tsv_pairs(tmp_path / "empty.tsv")


def test_tsv_pairs_drop_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.tsv"
    path.write_bytes("Go.\tVe.\r\nHi.\tHola.\r\n".encode("utf-8-sig"))
    pairs = data.read_tsv_pairs(path)
    assert [(p.source, p.target) for p in pairs] == [("Go.", "Ve."), ("Hi.", "Hola.")]


def test_tsv_not_utf8_names_the_file_and_line(tmp_path, capsys):
    path = tmp_path / "latin1.tsv"
    path.write_bytes("Go.\tVe.\nCoffee.\tCafé.\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin1\.tsv is not UTF-8: line 2 .*0xe9"):
        data.read_tsv_pairs(path)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())  # a BOM is no line
    with pytest.raises(ValueError, match="line 2 "):
        data.read_tsv_pairs(path)
    argv = ["translation", "train", "--pairs", str(path)]
    argv += ["--output", str(tmp_path / "run")]
    assert main(argv) == 2
    assert f"{path} is not UTF-8: line 2" in capsys.readouterr().err


def test_number_pairs_are_seeded_and_distinct():
    pairs = data.number_pairs(50, seed=3)
    assert pairs == data.number_pairs(50, seed=3)
    assert len({p.source for p in pairs}) == 50
    from num2words import num2words

    assert data.number_pairs(1, seed=0, max_value=0)[0] == data.Pair(
        num2words(0, lang="en"), num2words(0, lang="es")
    )


def test_clean_osis_keeps_words_apart_around_notes():
    raw = (
        '<q who="Jesus"><w lemma="strong:G3439">only</w> born</q><note placement="foot">'
        "<reference>3:16 </reference>The phrase “only born”...</note><w>Son</w>, that"
    )
    assert data.clean_osis(raw) == "only born Son, that"


def test_split_by_book_holds_whole_books_out():
    pairs = [
        data.Pair(str(i), str(i), book)
        for i, book in enumerate(["Genesis", "Mark", "John", "Ruth", "Acts"])
    ]
    train, validation, test = data.split_by_book(pairs)
    assert [p.book for p in train] == ["Genesis", "Acts"]
    assert [p.book for p in validation] == ["Mark", "Ruth"]
    assert [p.book for p in test] == ["John"]
    with pytest.raises(ValueError, match="books in both"):
        data.split_by_book(pairs, validation_books=("John",), test_books=("John",))


@pytest.mark.skipif(
    not SWORD_INSTALLED, reason="needs Debian's sword-text-web and sword-text-sparv"
)
def test_bible_pairs_read_one_book_aligned():
    pairs = data.bible_pairs(books=["Ruth"])
    assert len(pairs) == 85  # Ruth: 22 + 23 + 18 + 22 verses
    assert {p.book for p in pairs} == {"Ruth"}
    first = pairs[0]
    assert "judges judged" in first.source
    assert "jueces" in first.target
    assert all("<" not in p.source and "<" not in p.target for p in pairs)


def test_missing_sword_modules_name_the_install_command(tmp_path):
    with pytest.raises(
        RuntimeError, match="apt-get install sword-text-web sword-text-sparv"
    ):
        data.bible_pairs(sword_path=str(tmp_path), cache_dir=tmp_path, books=["Ruth"])


def test_tfds_translation_dataset_offline_with_mock_data():
    tfds = pytest.importorskip("tensorflow_datasets")
    with tfds.testing.mock_data(num_examples=5):
        pairs = data.tfds_pairs("ted_hrlr_translate/pt_to_en", split="train")
    assert len(pairs) == 5
    assert all(isinstance(p.source, str) and isinstance(p.target, str) for p in pairs)


def test_tfds_not_prepared_fails_fast_with_how_to_download(tmp_path, capsys):
    pytest.importorskip("tensorflow_datasets")
    name = "ted_hrlr_translate/pt_to_en"
    start = time.perf_counter()
    with pytest.raises(FileNotFoundError, match=f"{name} is not prepared in "):
        data.tfds_pairs(name, data_dir=str(tmp_path))
    assert time.perf_counter() - start < 30
    argv = ["translation", "train", "--tfds", name, "--tfds-data-dir", str(tmp_path)]
    assert main([*argv, "--output", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("attention-zoo translation train: error: ")
    assert "--download" in err and str(tmp_path) in err


def test_unknown_tfds_name_is_refused_with_the_closest_names(tmp_path, capsys):
    pytest.importorskip("tensorflow_datasets")
    with pytest.raises(
        ValueError, match=r"'ted_hrlr_translte/pt_to_en'.*ted_hrlr_translate"
    ):
        data.tfds_pairs("ted_hrlr_translte/pt_to_en", data_dir=str(tmp_path))
    argv = ["translation", "train", "--tfds", "ted_hrlr_translte/pt_to_en"]
    assert main([*argv, "--output", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    # tfds's own error lists every one of its ~1,300 datasets (8,700 characters).
    assert "closest names: ted_hrlr_translate" in err and len(err) < 500


def test_a_failed_download_exits_2_naming_the_dataset_and_cause(
    tmp_path, capsys, monkeypatch
):
    tfds = pytest.importorskip("tensorflow_datasets")

    def offline(self, *args, **kwargs):
        raise ConnectionError("Failed to resolve 'www.phontron.com'")

    monkeypatch.setattr(tfds.core.DatasetBuilder, "download_and_prepare", offline)
    name = "ted_hrlr_translate/pt_to_en"
    with pytest.raises(RuntimeError, match=f"downloading and preparing {name} into "):
        data.tfds_pairs(name, data_dir=str(tmp_path), download=True)
    argv = ["translation", "train", "--tfds", name, "--download"]
    argv += ["--tfds-data-dir", str(tmp_path), "--output", str(tmp_path / "run")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "ConnectionError: Failed to resolve 'www.phontron.com'" in err


def test_word_vocabulary_and_tokenization():
    from attention_zoo.applications.common import text as tok

    assert tok.tokenize("¿Dónde está?  «Aquí», dijo—él.") == [
        "¿",
        "dónde",
        "está",
        "?",
        "«",
        "aquí",
        "»",
        ",",
        "dijo",
        "—",
        "él",
        ".",
    ]
    vocab = tok.WordVocabulary.from_texts(["a b b c", "b c"], size=6)
    assert vocab.tokens == ["<pad>", "<unk>", "<start>", "<end>", "b", "c"]
    assert vocab.encode("b a c", add_start_end=True) == [2, 4, 1, 5, 3]
    assert vocab.decode([4, 1, 5, 3, 4]) == "b <unk> c"
    with pytest.raises(ValueError, match="Received: size=2"):
        tok.WordVocabulary.from_texts(["a"], size=2)


@pytest.mark.skipif(
    not SWORD_INSTALLED, reason="needs Debian's sword-text-web and sword-text-sparv"
)
def test_in_graph_tokenization_equals_python_on_the_test_books():
    tf = pytest.importorskip("tensorflow")
    from attention_zoo.applications.common import text as tok
    from attention_zoo.export import TokenTables, normalize_strings, split_punctuation

    test = data.bible_pairs(books=list(data.TEST_BOOKS))
    assert len(test) == 1210
    train_like = data.bible_pairs(books=["Ruth", "Jonah"])
    for side in ("source", "target"):
        texts = [getattr(p, side) for p in test]
        vocab = tok.WordVocabulary.from_texts(
            [getattr(p, side) for p in train_like], 500
        )
        tables = TokenTables(vocab.tokens, vocab.tokens)
        normalized = normalize_strings(
            split_punctuation(tf.constant(texts), tok.PUNCTUATION_CLASS)
        )
        max_length = 160
        ids, lengths = tables.encode_words(normalized, max_length)
        expected = [vocab.encode(t) for t in texts]
        assert lengths.numpy().tolist() == [len(e) for e in expected]
        assert max(len(e) for e in expected) <= max_length
        padded = [e + [0] * (max_length - len(e)) for e in expected]
        assert ids.numpy().tolist() == padded
        assert [t.decode() for t in normalized.numpy()] == [
            tok.normalize(t) for t in texts
        ]


def test_in_graph_decode_stops_at_the_first_stop_id():
    tf = pytest.importorskip("tensorflow")
    from attention_zoo.export import TokenTables

    tables = TokenTables(["<pad>", "<unk>", "a", "b"], ["", "", "a", "b"])
    ids = tf.constant([[2, 3, 0, 2], [3, 1, 2, 2]])
    # Row 0 stops at the pad; row 1 has no stop id, and <unk> maps to "".
    assert tables.decode(ids, stop_ids=(0,)).numpy().tolist() == [b"ab", b"baa"]
    assert tables.decode(ids, stop_ids=(0, 1)).numpy().tolist() == [b"ab", b"b"]
    # Empty strings (special tokens) never double the separator.
    assert tables.decode(ids, separator=" ").numpy().tolist() == [b"a b a", b"b a a"]
