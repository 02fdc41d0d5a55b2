"""tensorflow_datasets sources, with errors the command lines can report,
and the `TrainConfig` fields that name one (`--tfds`, `--tfds-data-dir`,
`--download`), written once for the text applications."""

from __future__ import annotations

import dataclasses
import re


def tfds_name_field(help: str):
    """The `tfds_name` field (`--tfds`, in the `corpus` group of flags of
    which one is given): the dataset to train on; None: the application's
    offline corpus. `help` names the application's datasets."""
    return dataclasses.field(
        default=None,
        metadata={"group": "corpus", "flag": "--tfds", "help": help},
    )


def tfds_data_dir_field():
    """The `tfds_data_dir` field: the tensorflow_datasets data folder."""
    return dataclasses.field(
        default=None,
        metadata={
            "help": "tensorflow_datasets data folder (default: tensorflow_datasets' "
            "own, ~/tensorflow_datasets)"
        },
    )


def tfds_download_field(help: str):
    """The `download` field: whether tensorflow_datasets may download
    `--tfds` (the network), off by default."""
    return dataclasses.field(default=False, metadata={"help": help})


def tfds_builder(name: str, data_dir=None, download: bool = False):
    """`tfds.builder(name)`, prepared first when `download` is set.

    Raises:
        ValueError: for a name tfds does not know, with the closest known
            names (tfds lists all of its ~1,300 datasets instead).
        RuntimeError: when `download_and_prepare` fails (network, disk), with
            the cause and the folder.
    """
    import difflib

    import tensorflow_datasets as tfds

    try:
        builder = tfds.builder(name, data_dir=data_dir)
    except tfds.core.registered.DatasetNotFoundError as error:
        # [namespace:]dataset[/config][:version]: the dataset's own name.
        head = [
            p for p in name.split("/")[0].split(":") if not re.fullmatch(r"[\d.*]+", p)
        ]
        dataset = head[-1] if head else name
        close = difflib.get_close_matches(dataset, tfds.list_builders(), n=3)
        hint = f"; closest names: {', '.join(close)}" if close else ""
        raise ValueError(
            f"no tensorflow_datasets dataset is named {name!r}{hint} (see "
            "https://www.tensorflow.org/datasets/catalog)"
        ) from error
    if download:
        try:
            builder.download_and_prepare()
        except Exception as error:  # network and disk errors of any library
            raise RuntimeError(
                f"downloading and preparing {name} into {builder.data_dir} "
                f"failed: {type(error).__name__}: {error}"
            ) from error
    return builder


def tfds_split(builder, split: str, how_to_download: str, **kwargs):
    """`builder.as_dataset(split=split, **kwargs)` of a prepared tfds dataset.

    tfds answers a dataset missing from the builder's `data_dir` with a bare
    AssertionError; this raises a FileNotFoundError naming the folder and
    `how_to_download` instead, which the command lines report (exit 2).
    """
    try:
        return builder.as_dataset(split=split, **kwargs)
    except AssertionError as error:
        raise FileNotFoundError(
            f"{builder.info.full_name.rsplit('/', 1)[0]} is not prepared in "
            f"{builder.data_dir}. {how_to_download}, or point data_dir "
            "(--tfds-data-dir) at the folder that holds it"
        ) from error
