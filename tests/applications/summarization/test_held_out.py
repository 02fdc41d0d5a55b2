"""What `summarization train` checks of its pairs before it trains: enough
held-out texts, held-out files that are not the training file, and fields
the pairs reader can hold, each refused in one line."""

import pytest

from attention_zoo.applications.summarization import data
from attention_zoo.applications.summarization.config import TrainConfig
from attention_zoo.applications.summarization.training import load_corpus
from attention_zoo.cli import main


def _pairs(path, n, start=0):
    path.write_text(
        "".join(f"Text number {i} about a tool.\tTool {i}\n" for i in range(start, n)),
        encoding="utf-8",
    )
    return str(path)


def _refused(capsys, argv) -> str:
    assert main(["summarization", "train", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "internal error" not in err, err
    return err


def test_one_pair_is_refused_naming_the_held_out_counts(tmp_path, capsys):
    pairs = _pairs(tmp_path / "one.tsv", 1)
    output = tmp_path / "run"
    err = _refused(capsys, ["--pairs", pairs, "--output", str(output)])
    assert "too few held-out texts: 0 validation and 0 test texts" in err
    assert "at least 5 of each" in err
    assert not output.exists()


def test_a_field_over_the_csv_limit_is_named_with_its_file_and_line(tmp_path, capsys):
    path = tmp_path / "big.tsv"
    path.write_text("A text.\tA\n" + "x" * 150_000 + "\tB\n", encoding="utf-8")
    with pytest.raises(
        ValueError, match=r"big.tsv, line 2: a field longer than 131,072"
    ):
        data.read_pairs(path)
    err = _refused(capsys, ["--pairs", str(path), "--output", str(tmp_path / "r")])
    assert "big.tsv, line 2: a field longer than 131,072 characters" in err


def test_held_out_files_that_are_the_training_file_are_refused(tmp_path, capsys):
    pairs = _pairs(tmp_path / "pairs.tsv", 60)
    argv = ["--pairs", pairs, "--validation-pairs", pairs, "--output"]
    argv.append(str(tmp_path / "run"))
    err = _refused(capsys, argv)
    assert "of the 60 validation pairs (--validation-pairs) have a text that is " in err
    # Mostly shared: refused too, with the count.
    mostly = _pairs(tmp_path / "mostly.tsv", 65, start=45)
    with pytest.raises(ValueError, match="of the 20 test pairs .--test-pairs. have"):
        load_corpus(TrainConfig(corpus="tsv", pairs=pairs, test_pairs=mostly))


def test_held_out_files_partly_shared_are_warned_of(tmp_path, capsys):
    pairs = _pairs(tmp_path / "pairs.tsv", 60)
    partly = _pairs(tmp_path / "partly.tsv", 120, start=50)  # 10 of 70 written
    other = _pairs(tmp_path / "other.tsv", 140, start=120)
    config = TrainConfig(
        corpus="tsv", pairs=pairs, validation_pairs=partly, test_pairs=other
    )
    train, validation, test = load_corpus(config)
    assert (len(validation), len(test)) == (70, 20)
    training = {e.text for e in train}
    shared = sum(e.text in training for e in validation)
    assert 0 < shared <= 10
    assert capsys.readouterr().err.splitlines() == [
        f"warning: {shared} of the 70 validation pairs (--validation-pairs) have a "
        "text that is also a training pair's (scores on them measure memory)"
    ]
