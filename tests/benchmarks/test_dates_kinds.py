"""The reading and scoring of `python -m benchmarks.dates_kinds`, on a tiny
fixture with fake answers (no model, no peer), and the shape of every
expected value of the shipped files."""

import collections
import datetime
import types

import pytest

from benchmarks.dates_kinds import ctparse_time, peer_score, score, single_latency
from benchmarks.dates_kinds_cases import (
    DATA,
    KINDS,
    NON_DATE,
    Case,
    at_grain,
    check_expected,
    outcome,
    read_cases,
)

HEADER = "# reference: 2026-01-15T09:00:00Z\n# language\tkind\ttext\texpected\n"
FIXTURE = {
    "a.tsv": "en\tpartial\tMarch 2015\t2015-03\n"
    "en\ttime\t5pm\t2026-01-15T17:00\n"
    "fr\tinterval\tdu 3 au 7 mai 1979\t1979-05-03/1979-05-07\n",
    "b.tsv": "de\tnon-date\tSeite 42\t-\nen\tdatetime\tnoon UTC\t2026-01-15T12:00Z\n",
}


def write(folder, files, header=HEADER):
    for name, body in files.items():
        (folder / name).write_text(header + body, encoding="utf-8")
    return folder


@pytest.fixture
def fixture(tmp_path):
    return read_cases(write(tmp_path, FIXTURE))


def test_the_fixture_is_read_with_its_reference(fixture):
    reference, cases = fixture
    assert reference == datetime.datetime(2026, 1, 15, 9, tzinfo=datetime.timezone.utc)
    assert [(c.language, c.kind) for c in cases] == [
        ("en", "partial"),
        ("en", "time"),
        ("fr", "interval"),
        ("de", NON_DATE),
        ("en", "datetime"),
    ]
    assert cases[3].expected is None and cases[0].where == "a.tsv:3"


def test_ours_is_scored_exactly_and_a_peer_at_the_expected_grain(fixture):
    _, cases = fixture
    ours = ["2015-03-01", None, "1979-05-03/1979-05-07", None, "2026-01-15T12:00+00:00"]
    assert score(cases, ours) == ["wrong", "refused", "right", "refused", "right"]
    peer = [
        "2015-03-15T00:00:00",  # a day of the month: right by year and month
        "2026-01-15T17:00:00",  # seconds a peer always gives: cut
        "1979-05-07T00:00:00",  # one date for an interval
        "2026-01-15T09:00:00",  # a non-date answered
        "2026-01-15T12:00:00",  # the offset lost
    ]
    assert peer_score(cases, peer) == ["right", "right", "wrong", "wrong", "wrong"]


@pytest.mark.parametrize(
    "answer, grain, cut",
    [
        ("2015-03-15T10:20:30", "year", "2015"),
        ("2015-03-15T10:20:30", "month", "2015-03"),
        ("2015-03-15T10:20:30+02:00", "minute", "2015-03-15T10:20+02:00"),
        ("2015-03-15T10:20:30+02:00", "day", "2015-03-15"),
        ("2014-09", "day", "2014-09"),  # coarser: kept, cannot match
        ("1979-05-03T00:00:00/1979-05-07T00:00:00", "day", "1979-05-03/1979-05-07"),
    ],
)
def test_at_grain(answer, grain, cut):
    assert at_grain(answer, grain) == cut


def test_outcome_treats_z_as_a_zero_offset():
    assert outcome("2014-12-12T08:25:00+00:00", "2014-12-12T08:25:00Z") == "right"
    assert outcome("2014-12-12T08:25:00+01:00", "2014-12-12T08:25:00Z") == "wrong"
    assert outcome(None, None) == "refused" and outcome("2026", None) == "wrong"


@pytest.mark.parametrize(
    "body, message",
    [
        ("en\tpartial\tMarch 2015\n", "expected 4 tab-separated fields"),
        ("en\tweekday\tFriday\t2026-01-16\n", "unknown kind 'weekday'"),
        ("en\tpartial\tfoo\t-\n", "'-' is the expected value of a non-date"),
        ("en\tabsolute\t30 Feb 2026\t2026-02-30\n", "no such date or time"),
        ("en\tabsolute\tMarch 2015\t2015-03\n", "not at the month grain"),
        ("en\tinterval\t1990-1995\t1995/1990\n", "start is after its end"),
        ("en\tpartial\t1990-1995\t1990/1995\n", "must not be an interval"),
        ("en\ttime\t5pm\t2026-01-15 17:00\n", "not an ISO 8601 point"),
    ],
)
def test_a_bad_line_is_named_with_its_file_and_line(tmp_path, body, message):
    write(tmp_path, {"bad.tsv": body})
    with pytest.raises(ValueError, match="bad.tsv:3: .*" + message.replace("(", ".")):
        read_cases(tmp_path)


def test_every_file_states_one_reference(tmp_path):
    write(tmp_path, {"a.tsv": FIXTURE["a.tsv"]})
    write(tmp_path, {"b.tsv": FIXTURE["b.tsv"]}, HEADER.replace("09:00", "10:00"))
    with pytest.raises(ValueError, match="different references"):
        read_cases(tmp_path)
    (tmp_path / "b.tsv").write_text(FIXTURE["b.tsv"], encoding="utf-8")
    with pytest.raises(ValueError, match="b.tsv: no '# reference: ...' line"):
        read_cases(tmp_path)


def test_a_ctparse_time_gives_the_parts_it_has():
    def time(**parts):
        names = ("year", "month", "day", "hour", "minute")
        return types.SimpleNamespace(**{n: parts.get(n) for n in names})

    assert ctparse_time(time(year=2014, month=9)) == "2014-09"
    assert ctparse_time(time(year=2026, month=1, day=15, hour=17)) == "2026-01-15T17:00"
    assert ctparse_time(time(month=5)) is None


def test_every_shipped_value_is_well_formed_for_its_kind():
    reference, cases = read_cases()
    assert reference.isoformat() == "2026-01-15T09:00:00+00:00"
    assert reference.strftime("%A") == "Thursday"
    for case in cases:
        if case.kind != NON_DATE:
            check_expected(case)
    per_kind = collections.Counter(c.kind for c in cases)
    languages = collections.defaultdict(set)
    for case in cases:
        languages[case.kind].add(case.language)
    for kind in KINDS:
        assert per_kind[kind] >= 40, (kind, per_kind[kind])
        assert len(languages[kind]) >= 10, (kind, sorted(languages[kind]))
    assert len(languages[NON_DATE]) >= 10
    assert len({c.text for c in cases}) == len(cases), "a text written twice"


def test_the_days_with_a_clock_time_are_well_formed():
    # benchmarks/data/dates_day_times: a day and a time, at the minute.
    reference, cases = read_cases(DATA.parent / "dates_day_times")
    assert reference.isoformat() == "2026-01-15T09:00:00+00:00"
    for case in cases:
        check_expected(case)
        assert len(case.expected) == len("2026-01-15T09:00"), case
    assert {c.kind for c in cases} == {"relative"}
    assert len(cases) == 89 and len({c.language for c in cases}) == 14
    assert len({c.text for c in cases}) == len(cases), "a text written twice"


def test_a_case_of_another_kind_is_checked_for_its_own_grains():
    case = Case("en", "computed", "third Tuesday of September", "2026-09", "x:1")
    with pytest.raises(ValueError, match="x:1: a computed answer is not at the month"):
        check_expected(case)


def test_single_latency_is_the_median_of_one_call_per_case_after_the_warm_ones(
    monkeypatch,
):
    import benchmarks.dates_kinds as bench

    calls = []
    # Each call takes one tick of a fake clock per input it gets; the warm
    # calls are not timed.
    clock = iter(range(0, 1000, 1))
    monkeypatch.setattr(bench.time, "perf_counter", lambda: next(clock) / 1000)

    def batch(cases):
        calls.append(list(cases))
        return [None] * len(cases)

    assert single_latency(batch, ["a", "b", "c"], warm=2) == pytest.approx(1.0)
    assert calls == [["a"], ["b"], ["a"], ["b"], ["c"]]
    with pytest.raises(ValueError, match="cases"):
        single_latency(batch, [])


def test_an_iso_runs_saved_model_is_refused_naming_what_it_reads(monkeypatch):
    import attention_zoo.applications as applications
    from benchmarks.dates_kinds import ours_predictor

    class SavedModelAnswers:  # `load_exported`'s SavedModel of ISO dates: no reference
        def __call__(self, inputs):
            return []

    monkeypatch.setattr(applications, "load_exported", lambda path: SavedModelAnswers())
    with pytest.raises(SystemExit, match="forms run"):
        ours_predictor(export="dates-saved-model")
