"""Summarization data: apt's description files, split by source package,
user pairs, tensorflow_datasets offline, and the text to ids round trip."""

from pathlib import Path

import numpy as np
import pytest

from attention_zoo.applications.common.text import UNK_ID, WordVocabulary, detokenize
from attention_zoo.applications.summarization import data
from attention_zoo.applications.summarization.text import (
    encode_sources,
    encode_summaries,
    output_tokens,
)

DATA = Path(__file__).parent / "data"


def test_descriptions_are_read_with_their_source_packages():
    examples = data.debian_examples(DATA / "apt")
    by_name = {e.name: e for e in examples}
    assert by_name["0ad"].summary == "Real-time strategy game of ancient warfare"
    assert by_name["0ad"].text.startswith('0 A.D. (pronounced "zero ey-dee") is a')
    assert "  " not in by_name["0ad"].text and "\n" not in by_name["0ad"].text
    # Binary packages keep their source package, the split's unit.
    assert by_name["emacs-gtk"].group == "emacs" and by_name["0ad"].group == "0ad"
    assert by_name["0ad-data-common"].group == "0ad-data"
    # A description shared word for word by two packages is kept once.
    assert len({(e.text, e.summary) for e in examples}) == len(examples)


def test_a_source_package_never_straddles_two_splits():
    examples = data.debian_examples(DATA / "apt") + data.read_pairs(
        DATA / "debian_sample.tsv"
    )
    splits = data.split_by_source(examples)
    groups = [{e.group for e in split} for split in splits]
    assert not (groups[0] & groups[1] or groups[0] & groups[2] or groups[1] & groups[2])
    assert sum(map(len, splits)) == len(examples)
    # The same names land in the same splits again: a hash, not a shuffle.
    assert data.split_by_source(examples) == splits


def test_missing_description_files_say_how_to_fetch_them(tmp_path):
    with pytest.raises(
        FileNotFoundError, match=r"apt-get -o Acquire::Languages=en update"
    ):
        data.debian_examples(tmp_path)


def test_pairs_files_skip_and_count_lines_without_both_sides(tmp_path, capsys):
    path = tmp_path / "pairs.tsv"
    path.write_text("a text\ta summary\tmore\nno tab\n\n\tonly a summary\n", "utf-8")
    (example,) = data.read_pairs(path)
    assert (example.text, example.summary) == ("a text", "a summary")
    assert "skipped 2 line(s)" in capsys.readouterr().err
    (tmp_path / "latin1.tsv").write_bytes("caf\xe9\tx\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin1.tsv is not UTF-8 \(line 1\)"):
        data.read_pairs(tmp_path / "latin1.tsv")


def test_pairs_round_trip_through_a_file_with_tabs_and_newlines_inside(tmp_path):
    examples = [data.Example("one\ttext\nwith breaks", "its\tsummary")]
    data.write_pairs(tmp_path / "p.tsv", examples)
    (back,) = data.read_pairs(tmp_path / "p.tsv")
    assert (back.text, back.summary) == ("one text with breaks", "its summary")


def test_tfds_summarization_sets_offline_with_mock_data():
    tfds = pytest.importorskip("tensorflow_datasets")
    with tfds.testing.mock_data(num_examples=4):
        examples = data.tfds_examples("gigaword", "train")
    assert len(examples) == 4
    assert all(isinstance(e.text, str) and isinstance(e.summary, str) for e in examples)
    with pytest.raises(ValueError, match="`tfds_name` must be one of"):
        data.tfds_examples("mnist", "train")


def test_texts_become_ids_and_extended_ids_and_copies_come_back_as_written():
    vocabulary = WordVocabulary.from_texts(["a library for the tool"] * 2, 20)
    size = len(vocabulary)
    text = "Zork: a library for Zork and GNU"
    ids, extended, lengths = encode_sources([text], vocabulary, width=10)
    # zork : a library for zork and gnu
    assert lengths.tolist() == [8]
    assert ids[0, 0] == UNK_ID and extended[0, 0] == size  # first position
    assert extended[0, 5] == size  # the second "zork" points at the first
    assert extended[0, 7] == size + 7 and ids[0, 8:].tolist() == [0, 0]
    inputs, labels = encode_summaries(["GNU Zork library"], [text], vocabulary, 6)
    assert labels[0, :4].tolist() == [size + 7, size, vocabulary.index["library"], 3]
    # The decoder reads a copied word as <unk>.
    assert inputs[0, :4].tolist() == [2, UNK_ID, UNK_ID, vocabulary.index["library"]]
    plain, _ = encode_summaries(["GNU Zork"], [text], vocabulary, 6, copy=False)
    assert plain[0, 1] == UNK_ID
    words = output_tokens(
        np.array([size + 7, size, vocabulary.index["library"], 3]), text, vocabulary
    )
    assert words == ["GNU", "Zork", "library"]
    # A generated <unk> is the word its step attends to most, as written.
    attention = np.zeros((4, 12))
    attention[0, 7] = 1.0  # "GNU"
    unk = np.array([UNK_ID, vocabulary.index["library"], 3])
    assert output_tokens(unk, text, vocabulary, attention) == ["GNU", "library"]
    assert output_tokens(unk, text, vocabulary) == ["<unk>", "library"]
    assert detokenize(
        ["zork", ":", "a", "real", "-", "time", "game", "(", "3d", ")", "."]
    ) == ("Zork: a real-time game (3d).")


def test_a_vocabulary_word_the_text_holds_is_written_as_the_text_writes_it():
    vocabulary = WordVocabulary.from_texts(["gnu emacs editor for the gnu system"], 20)
    ids = np.array([vocabulary.index[w] for w in ("gnu", "emacs", "editor")] + [3])
    text = "GNU Emacs is the extensible text editor of the GNU system."
    assert output_tokens(ids, text, vocabulary) == ["GNU", "Emacs", "editor"]
    assert output_tokens(ids, "an editor", vocabulary) == ["gnu", "emacs", "editor"]
