"""Benchmarks of attention_zoo, run from the repository root as modules.

`python -m benchmarks.NAME` (for example `python -m benchmarks.decoding
--quick`) measures the checkout it runs in: `-m` puts the current folder
first on `sys.path`, so `attention_zoo` is imported from there, installed or
not. `benchmarks.harness` holds what the scripts share: timing, interleaving
of the compared variants, tables and the facts about the machine.
"""
