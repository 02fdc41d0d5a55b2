"""`python -m benchmarks.forms_threshold` refuses what is not a forms run
(its arithmetic is `form_calibration`'s, tested in
tests/applications/dates/test_form_calibration.py)."""

import json

import pytest

from benchmarks.forms_threshold import main


def test_a_run_that_is_not_a_forms_run_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--run", str(tmp_path / "none")])
    assert stop.value.code == 2
    assert "--run must be a run folder with a config.json" in capsys.readouterr().err
    (tmp_path / "config.json").write_text(json.dumps({"target": "iso"}))
    with pytest.raises(SystemExit) as stop:
        main(["--run", str(tmp_path)])
    assert stop.value.code == 2
    assert "--run must be a forms run" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--run", str(tmp_path), "--bootstrap", "0"])
    assert "--bootstrap must be at least 1. Received: 0" in capsys.readouterr().err
