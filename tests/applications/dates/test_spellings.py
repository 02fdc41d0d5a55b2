"""The passes that write an absolute day the way the model was taught
(`text_spellings`): what each rewrites, that no generated text is
rewritten, and that the shipped preset then reads them. Their graph halves
are checked in test_pass_parity.py."""

import pytest

from attention_zoo.applications.dates import data, passes, text_spellings
from tests.applications.dates.hand_written import read_guard_families

SPELLING_PASSES = [
    p for p in passes.PASSES if p.python.__module__ == text_spellings.__name__
]


@pytest.mark.parametrize(
    "text, view",
    [
        ("1998年6月30号", "1998年6月30日"),
        ("一九九八年六月三十號", "1998年6月30日"),
        ("3号线", "3日线"),  # any number: the model then refuses it
        ("1998年6月30日までに", "1998年6月30日"),
        ("1998年6月30日から", "1998年6月30日"),
        ("1998年6月30日にx", "1998年6月30日にx"),  # not at the end
        ("16 Wrzesień 1998", "16 września 1998"),
        ("16 syyskuu 1998", "16 syyskuuta 1998"),
        ("16 září 1998", "16 září 1998"),  # Czech writes it the same
        ("16 сентябрь 1998", "16 сентября 1998"),
        ("16 ВЕРЕСЕНЬ 1998", "16 вересня 1998"),
        ("16 Σεπτέμβριος 1998", "16 σεπτεμβρίου 1998"),
        ("16 לספטמבר 1998", "16 בספטמבר 1998"),
        ("16-MÄR-1998", "16-märz-1998"),
        ("16 fév. 1998", "16 févr. 1998"),
        ("wrzesień 1998", "wrzesień 1998"),  # no day before it
        ("16 wrześniowy", "16 wrześniowy"),  # not a whole word
        ("1998 / 06 / 16", "1998/06/16"),
        ("16 . 06 . 1998", "16.06.1998"),
        ("16 - 18 juin 1998", "16 - 18 juin 1998"),  # not all-numeric
    ],
)
def test_each_spelling_reads_as_the_model_was_taught(text, view):
    assert passes.normalize(text) == view


def test_no_generated_text_is_rewritten():
    before = passes.PASSES[: passes.PASSES.index(SPELLING_PASSES[0])]
    assert len(SPELLING_PASSES) == 4
    for example in data.generate(3000, seed=41) + data.generate_negatives(600, seed=4):
        text = passes.run_python(example.text, before)
        for p in SPELLING_PASSES:
            assert p.python(text) == text, (p.name, example.text)


@pytest.mark.tf_only
def test_the_shipped_normalizer_reads_them():
    from attention_zoo.applications.dates.predictor import Normalizer

    read = {"zh_hao", "ja_particle", "he_lamed", "nominative_month"}
    read |= {"abbreviation", "dash_month", "spaced_numeric"}
    rows = [r for r in read_guard_families() if r[0] in read | {"month_first_dotted"}]
    items = Normalizer.from_preset("dates_multilingual")([r[3] for r in rows])
    for (family, _, expected, text), item in zip(rows, items):
        if family in read:
            assert (item["text"], item["valid"]) == (expected, True), (text, item)
        else:  # month first with dots: day first is the rule, so refused
            assert not item["valid"], (text, item)
