"""The grounding of a forms run's answer in its text (form_grounding.py,
form_words.py): for each kind of form, a text that writes it passes, and a
form whose number or word the text does not write is refused, naming it.
Every generated text passes its own form's check in
test_time_expressions.py (the generator's pools, every language)."""

import pytest

from attention_zoo.applications.dates import form_answers, lexicon
from attention_zoo.applications.dates.form_grounding import form_disagreement
from attention_zoo.applications.dates.forms import FormError
from attention_zoo.applications.dates.reference import parse_reference

pytestmark = pytest.mark.backend_free

WORDS = lexicon.load(), lexicon.load_days()


def _reason(text, form, languages=None):
    if languages is None:
        return form_disagreement(text, form, *WORDS)
    return form_disagreement(text, form, *WORDS, languages)


@pytest.mark.parametrize(
    "text, form",
    [
        ("yesterday", "shift day -1"),
        ("ayer", "shift day -1"),
        ("in 3 days", "shift day +3"),
        ("hace 3 días", "shift day -3"),
        ("vor 2 Wochen", "shift week -2"),
        ("三天前", "shift day -3"),  # the numeral read as 3
        ("the day after tomorrow", "shift day +2"),
        ("next week", "cycle week +1"),
        ("el mes pasado", "cycle month -1"),
        ("this Friday", "weekday 0 FRI"),
        ("next Friday", "weekday +1 FRI"),
        ("Friday", "weekday FRI"),
        ("in 2 Fridays", "weekday +2 FRI"),
        ("March 2015", "month 2015-03"),
        ("marzec 2015", "month 2015-03"),  # Polish nominative, CLDR's
        ("last March", "month -1 --03"),
        ("1987", "year 1987"),
        ("3 May", "date --05-03"),
        ("23/5/79", "date '79-05-23"),  # 3/5/79 reads two ways
        ("5:30 pm", "time 17:30"),
        ("17h30", "time 17:30"),
        ("8 in the evening", "time 20:00"),
        ("午後3時", "time 15:00"),
        ("17:30 UTC", "time 17:30Z"),
        ("8:25 a.m. Dec. 12, 2014", "datetime 2014-12-12T08:25"),
        ("2014-12-12T08:25:00Z", "datetime 2014-12-12T08:25:00Z"),
        ("2014-12-12T08:25-05:00", "datetime 2014-12-12T08:25-05:00"),
        ("8:25 EST Dec 12 2014", "datetime 2014-12-12T08:25-05:00"),
        ("tomorrow at 5 pm", "shift day +1 at 17:00"),
        ("13 - 15 de julio de 2013", "date 2013-07-13 / date 2013-07-15"),
        ("May 2015 – June 2016", "month 2015-05 / month 2016-06"),
        ("December 20, 2021 - January 3, 2022", "date 2021-12-20 / date 2022-01-03"),
        ("de 14h à 16h30", "time 14:00 / time 16:30"),
        ("25/4", "date --04-25"),
        ("12. 4.", "date --04-12"),  # dots are day first
        ("10:55 – 11:55 p.m.", "time 22:55 / time 23:55"),
        ("third Tuesday of September 2014", "nth 3 TUE 2014-09"),
        ("the last Sunday of March", "nth -1 SUN --03"),
        ("Easter Monday 2021", "easter +1 2021"),
        ("Good Friday", "easter -2"),
        ("Пасха 2021", "orthodox-easter 0 2021"),
        ("Christmas", "date --12-25"),
        ("le jour de l'an", "date --01-01"),  # the words write l\u2019an
        ("Christmas 2015", "date 2015-12-25"),
        ("last Christmas", "date -1 --12-25"),
        ("the twenty-eighth of June", "date --06-28"),  # a day in words
        # words the generator writes beside CLDR's (expression_words.json)
        ("noon", "time 12:00"),
        ("at midnight", "time 00:00"),
        ("à minuit", "time 00:00"),
        ("в полдень", "time 12:00"),
        ("正午", "time 12:00"),
        ("12 noon", "time 12:00"),
        ("um 16 Uhr", "time 16:00"),
        ("à 9 h", "time 09:00"),
        ("a las 15", "time 15:00"),  # the hand-written hours' words
        ("alle 9", "time 09:00"),
        ("الساعة ١٢", "time 12:00"),
        ("17h", "time 17:00"),
        ("晚上8点半", "time 20:30"),
        ("सुबह 9 बजे", "time 09:00"),
        ("in 1974", "year 1974"),
        ("im Jahr 1995", "year 1995"),
        ("в 1983 году", "year 1983"),
        ("im Juni 2011", "month 2011-06"),
        ("el 9 de abril", "date --04-09"),
        ("hace una semana", "shift week -1"),
        ("daqui a um mês", "shift month +1"),
        ("بعد 4 أيام", "shift day +4"),
        ("5 दिन पहले", "shift day -5"),
        ("tomorrow at 9am", "shift day +1 at 09:00"),
        ("明天上午9点", "shift day +1 at 09:00"),
        ("from 4 to 9 June 1984", "date 1984-06-04 / date 1984-06-09"),
        ("de 1939 à 1945", "year 1939 / year 1945"),
        ("1961 - 1967", "year 1961 / year 1967"),
        ("from 11pm to 7am", "time 23:00 / time 07:00"),
        ("7点半到9点", "time 07:30 / time 09:00"),  # 半 is the 7's only
        ("6天后早上6点半", "shift day +6 at 06:30"),  # the first 6 is a count
        # its count, not the "mañana" (morning) of its time, grounds the day
        ("dentro de 1 día a las 7 de la mañana", "shift day +1 at 07:00"),
        # a numeric date of one reading beside a time; seconds written and read
        ("23/09/2018 à 8h", "datetime 2018-09-23T08:00"),
        # two readings, the day first by the joining word's language
        ("12/09/2018 à 8h", "datetime 2018-09-12T08:00"),
        ("07/09/2022 às 15:40", "datetime 2022-09-07T15:40"),
        ("01.01.2000 00:00:01", "datetime 2000-01-01T00:00:01"),
        # Arabic periods with or without their vowel marks
        ("الساعة 12:30 ظهرا", "time 12:30"),
        # Hindi's week with or without its nukta (हफ़्ते, हफ्ते)
        ("अगले हफ्ते", "cycle week +1"),
        ("अगले हफ़्ते", "cycle week +1"),
        ("2 हफ्ते पहले", "shift week -2"),
        ("الساعة ٩ مساءً", "time 21:00"),
        # ظهرًا written for 1-3 p.m. too (`period_hours`), not CLDR's 12 alone
        ("الساعة 2:00 ظهرا", "time 14:00"),
        # عصرًا, the afternoon (of the asr prayer), which CLDR does not write
        ("الساعة ٤ عصرا", "time 16:00"),
        # CLDR's stand-alone p.m. (مساءً) and Portuguese's wide a.m. and p.m.
        ("الساعة ٥ مساء", "time 17:00"),
        ("às 3 da manhã", "time 03:00"),
        ("Monday to Friday", "weekday MON / weekday FRI"),
        ("Viernes Santo de 2022", "easter -2 2022"),
        ("de marzo a mayo de 2020", "month 2020-03 / month 2020-05"),
        # a month alone; a relative word the form uses, or a weekday's or
        # holiday's name that holds one (Dutch "ma": Monday, Hungarian today)
        ("in May", "month --05"),
        ("январь", "month --01"),
        ("明天下午5点", "shift day +1 at 17:00"),
        ("अगले महीने", "cycle month +1"),
        # Hindi's selector in the oblique case before a noun (`directions`)
        ("अगले मंगलवार दोपहर 2 बजे", "weekday +1 TUE at 14:00"),
        ("पिछले शुक्रवार", "weekday -1 FRI"),
        # "now" moves no day: Romanian "ora" (hour) is Italian's "now"
        ("la ora 17:00", "time 17:00"),
        # a month in a case CLDR does not give (`month_cases`)
        ("в январе 2020", "month 2020-01"),
        ("w maju 2021", "month 2021-05"),
        ("a las 7 de la mañana", "time 07:00"),
        ("ma 29 jan 2018, om 14 uur", "datetime 2018-01-29T14:00"),
        ("اليوم العالمي للمرأة 2026", "date 2026-03-08"),
        # a zone abbreviation read; French "est" and German "ist" are words
        ("в 22:00 МСК", "time 22:00+03:00"),
        ("il est 10:00", "time 10:00"),
        # ISO 8601's basic offset, and RFC 2822's date-time that writes it
        ("2019-06-01T10:00:00+0200", "datetime 2019-06-01T10:00:00+02:00"),
        ("Sat, 01 Jun 2019 10:00:00 -0530", "datetime 2019-06-01T10:00:00-05:30"),
        ("17:30 +1000", "time 17:30+10:00"),
        # a day and month with a time, either first
        ("3 mai 12h30", "date --05-03 at 12:30"),
        ("10:30, 3 May", "date --05-03 at 10:30"),
        ("May the 2nd", "date --05-02"),
        # a quantity's number is no date's, nor one the form leaves unused
        ("5 km on 3 May", "date --05-03"),
        ("$12 on May 3", "date --05-03"),
        ("12,5 kg am 3. Mai", "date --05-03"),
        ("1° maggio", "date --05-01"),  # Italian's ordinal, no degree
        ("Es ist 10:00 Uhr", "time 10:00"),
        # such a month abbreviation as its language writes it, or with a year
        ("17 lip", "date --07-17"),
        ("3 de Out.", "date --10-03"),
        ("15 Pro 2015", "date 2015-12-15"),
        ("15. prosince", "date --12-15"),
        # a word of the clock before dotted numbers: a time ending a sentence
        ("klo 12.04.", "time 12:04"),
        ("between 3 and 5 May", "date --05-03 / date --05-05"),
        ("entre el 3 y el 5 de mayo", "date --05-03 / date --05-05"),
        ("3 al 5 de mayo", "date --05-03 / date --05-05"),  # no list's word
        ("17 Uhr 30", "time 17:30"),  # a clock word between, no joiner
        ("下午3点5分", "time 15:05"),  # a clock word, no separator
        ("10時に", "time 10:00"),  # 時, no 時間
        ("ratio 3:2, at 3:02", "time 03:02"),  # one of its minutes has two digits
        ("from 3 pm to 5:30 pm", "time 15:00 / time 17:30"),
        ("Treffen um 12.04.", "time 12:04"),
        ("on 12.04.", "date --04-12"),
        ("2020年1月到6月", "month 2020-01 / month 2020-06"),  # 1, 6: markers'
        # a joiner as the language's elision writes it (Italian's "ad")
        ("da maggio ad ottobre del 1904", "month 1904-05 / month 1904-10"),
        # 13-23 beside an afternoon's period or a count of days (Russian
        # дня, also a day period), and a selector the form uses
        ("13 pm", "time 13:00"),
        ("15:00 PM", "time 15:00"),
        ("через 3 дня, 23:00", "shift day +3 at 23:00"),
        ("last March", "month -1 --03"),
        ("el próximo marzo", "month +1 --03"),
    ],
)
def test_a_form_the_text_writes_is_grounded(text, form):
    assert _reason(text, form) == ""


@pytest.mark.parametrize(
    "text, form, named",
    [
        # relative: the amount, the unit and the direction
        ("in 3 days", "shift day +4", "'day +4'"),
        ("3 days ago", "shift day +3", "'day +3'"),
        ("in 3 days", "shift week +3", "'week +3'"),
        ("yesterday", "shift day -2", "'day -2'"),
        ("next week", "cycle week -1", "'cycle week -1'"),
        ("next month", "cycle week +1", "'cycle week +1'"),
        # weekday: its name and its selector
        ("next Friday", "weekday +1 THU", "weekday 'THU'"),
        ("Friday", "weekday +1 FRI", "selector +1"),
        ("अगले मंगलवार", "weekday -1 TUE", "selector -1"),
        ("in 2 Fridays", "weekday +3 FRI", "count 3"),
        # a count of weekdays only by a counted text: 8 is the hour here
        ("last Friday at 8 pm", "weekday -8 FRI", "count 8"),
        ("الجمعة الماضية الساعة 8 مساءً", "weekday -8 FRI", "count 8"),
        # half a unit is no whole one (form_halves.py)
        ("half a year ago", "shift year -1", "'half'"),
        ("half an hour ago", "shift hour -1", "'hour -1' is not written"),
        # Indonesian's week is its Sunday's name: two weeks ago, no Sunday
        ("2 minggu lalu", "weekday -2 SUN", "weekday 'SUN'"),
        # month, year, day and month
        ("March 2015", "month 2015-04", "month 04"),
        ("March 2015", "month 2016-03", "year '2016'"),
        ("March", "month +1 --03", "selector +1"),
        ("1987", "year 1988", "year '1988'"),
        # a clock's minutes are two digits: a score is no time
        ("3:0 win", "time 03:00", "as no clock"),
        ("Bayern gewann 2:0", "time 02:00", "as no clock"),
        # an interval's text joins its ends (form_joins.py)
        ("3 PM 2 PM", "time 15:00 / time 14:00", "joins two ends"),
        ("1999 2000", "year 1999 / year 2000", "joins two ends"),
        ("Monday Tuesday", "weekday MON / weekday TUE", "joins two ends"),
        # A list's "and" joins only after "between" (form_joins.openers):
        # forms56 read these as the 3rd to the 5th, Monday to Wednesday.
        ("3 and 5 May", "date --05-03 / date --05-05", "joins two ends"),
        ("Monday and Wednesday", "weekday MON / weekday WED", "joins two ends"),
        ("3 y 5 de mayo", "date --05-03 / date --05-05", "joins two ends"),
        # A zone no table reads (form_zones.unread_zone): forms56 read these
        # as 10:00 in the reference's zone.
        ("10:00 HKT", "time 10:00", "the zone 'HKT'"),
        ("10:00 Europe/Berlin", "time 10:00", "the zone 'Europe/Berlin'"),
        ("10am PT", "time 10:00", "the zone 'PT'"),  # Pacific Time
        # a year alone is written with year words only (form_years.py)
        ("2000 pages", "year 2000", "'pages'"),
        ("2000 km", "year 2000", "year '2000'"),  # a quantity: no number
        ("ISO 9001", "year 9001", "'iso'"),
        ("Model 3000 в 1969 году", "year 1969", "'model'"),
        ("3 May", "date --05-04", "day 4"),
        ("3/5/79", "date '78-05-03", 'year "\'78"'),
        # times: the hour, its period, the minute, the zone
        ("5:30 pm", "time 05:30", "hour 05 disagrees with the text's 'pm'"),
        # an hour of 13-23 needs no period, but takes no morning's
        ("13 am", "time 13:00", "hour 13 disagrees with the text's 'am'"),
        ("this morning at 14:00", "shift day 0 at 14:00", "hour 14 disagrees"),
        # the selector's word, when the form drops it (form_selectors.py)
        ("last March", "month --03", "writes 'last'"),
        ("next Christmas", "date --12-25", "writes 'next'"),
        ("5:30", "time 17:30", "hour 17"),
        ("17:30", "time 17:45", "minute 45"),
        ("17:30:12", "time 17:30:13", "second 13"),
        ("17:30", "time 17:30Z", "zone 'Z'"),
        ("17:30 +01:00", "time 17:30+02:00", "offset '+02:00'"),
        # ISO 8601's basic offset is four digits: +10 and +1000 are no +01:00
        ("17:30 +10", "time 17:30+01:00", "offset '+01:00'"),
        ("17:30 +1000", "time 17:30+01:00", "offset '+01:00'"),
        ("17:30 +0530", "time 17:30+05:00", "offset '+05:00'"),
        ("17:30 -0200", "time 17:30+02:00", "offset '+02:00'"),
        # a number with a unit is a quantity, no day
        ("June 12 km run", "date --06-12", "day 12"),
        ("3 May 10%", "date --05-10", "day 10"),
        ("20°C on May 20", "date --05-20 / date --05-20", "two ends"),
        # a date with a time: the minutes are not the day as well
        ("8:25 a.m. Dec. 12, 2014", "datetime 2014-12-25T08:25", "day 25 is written only as a time"),
        ("2:21 p.m., December 11, 2014", "datetime 2014-12-21T14:21", "day 21 is written only"),
        ("2014-12-12 08:12", "datetime 2014-12-08T08:12", "number 8 as its day and its hour"),
        ("8:25 a.m. Dec. 12, 2014", "datetime 2014-12-12T20:25", "hour 20"),
        # every number of the text is the form's: a time is no second day
        ("vendredi 13 novembre 2015 - 21 h 20", "date 2015-11-13 / date 2015-11-21",
         "day 21 is written only as a time's"),  # 21 h: an hour's
        # a day and a month of no year read two ways, or not the dots' way
        ("12/4", "date --04-12", "ambiguous: it reads as --04-12 or --12-04"),
        ("1/2 cup", "date --02-01", "ambiguous"),
        ("2.1.", "date --02-01", "its numbers read --01-02, not --02-01"),
        # a time named by a word is the form's too: no day alone
        ("tomorrow noon", "shift day +1", "names a time ('noon')"),
        ("Friday midnight", "weekday FRI", "names a time ('midnight')"),
        # a month abbreviation that is another language's word, as a name
        ("iPhone 15 Pro", "date --12-15", "only by 'pro', written with a capital"),
        ("Windows 11 Pro", "date --12-11", "only by 'pro'"),
        # digits before an `h` are an hour's, no day
        ("2h ago", "date --08-02", "day 2 is written only as a time's"),
        # a dot after each of two numbers: a day and a month, no clock
        ("on 12.04.", "time 12:04", "'12.04.' as a day and a month (--04-12)"),
        ("am 12.04.", "time 00:04", "as a day and a month"),
        # An hour and a minute written as a range's ends (forms57: 03:05).
        ("de 3 a 5", "time 03:05", "the minute 05 as a range's two ends ('a'"),
        ("from 3 to 5", "time 03:05", "('to' between them)"),
        ("3-5", "time 03:05", "a range's two ends"),
        ("Treffen am 3. 5.", "time 03:05", "as a day and a month (--05-03)"),
        # a minute of one digit after a clock's separator is no clock's
        ("3:2 ratio", "time 03:02", "the minute '2' with one digit"),
        ("chapter 4.5", "time 04:05", "with one digit"),
        # a clock word that starts a count's unit (時 of 時間: ten hours)
        ("10時間", "time 10:00", "the hour 10 as no clock"),
        # a run after a word of the clock is an hour's (day_order.hour_runs)
        ("vendredi 13 novembre 2015 à 21 h 20", "date 2015-11-13 / date 2015-11-21",
         "day 21 is written only"),
        ("3 mai à 10", "date --05-03 / date --05-10", "day 10 is written only"),
        # an interval's two ends are two points (form_joins)
        ("until Friday", "weekday FRI / weekday FRI", "two ends are one point"),
        # 年 before the dash of "{0}年～{1}年" is no joiner (form_joins)
        ("2015年5月3日10时", "date 2015-05-03 / date 2015-05-10", "joins two ends"),
        ("bis 2020", "year 2020 / year 2020", "two ends are one point"),
        ("2019-06-01 10:00 +02:00", "datetime 2019-06-01T10:00", "number 02"),
        ("3. Oktober 2020, 10 Uhr", "date 2020-10-03 / date 2020-10-10", "day 10 is written only"),
        ("1 сентября 2023 г. в 8 утра", "date 2023-09-01 / date 2023-09-08", "day 8 is written only"),
        # intervals: each end
        ("13 - 15 de julio de 2013", "date 2013-07-13 / date 2013-07-16", "day 16"),
        ("May 2015 – June 2016", "month 2015-05 / month 2016-07", "month 07"),
        # computed days: the rank, the weekday, the month
        ("third Tuesday of September 2014", "nth 2 TUE 2014-09", "rank 2"),
        ("third Tuesday of September 2014", "nth 3 WED 2014-09", "weekday 'WED'"),
        ("third Tuesday of September 2014", "nth 3 TUE 2014-10", "month 10"),
        ("last Sunday of March", "nth -2 SUN --03", "rank -2"),
        # holidays: the name means the form
        ("yesterday", "easter -2", "'easter -2'"),
        ("Easter", "easter -2", "'easter -2'"),
        ("Easter Monday", "easter 0", "'easter 0'"),  # not the `easter` inside
        ("Easter Monday 2021", "easter +1 2022", "year '2022'"),
        ("Пасха", "easter 0", "'easter 0'"),  # the Orthodox one
        ("Christmas", "date --12-24", "day 24"),
        # a day that holds a holiday's name is not that holiday
        ("Christmas Eve 2019", "date 2019-12-25", "day 25"),
        ("la vigilia di Natale", "date --12-25", "day 25"),
        # a whole hour needs a clock: minutes, an h, a period or a clock word
        ("الصفحة ١٢", "time 12:00", "as no clock"),
        ("page 12", "time 12:00", "as no clock"),
        ("Zimmer 15", "time 15:00", "as no clock"),
        ("tomorrow 5", "shift day +1 at 05:00", "as no clock"),
        # a time or a year is no reading of a text that names a month
        ("9 мая", "time 09:00", "names a month (05)"),
        ("Oct 4", "time 04:00", "names a month (10)"),
        ("juin 2018", "year 2018", "names a month (06)"),
        # each end of an interval takes numbers of its own (but a shared year)
        ("de 14h à 16h30", "time 14:30 / time 16:30", "minute and its end's minute"),
        # a day and a month read from digits are written side by side
        ("chapitre 12, verset 4", "date --04-12", "apart"),
        ("room 3, floor 5, 2019", "date 2019-05-03", "apart"),
        # an interval uses every month its text names
        (
            "December 20, 2021 - January 3, 2022",
            "date 2021-01-20 / date 2022-01-03",
            "names a month (12)",
        ),
        # noon and midnight by name are 12:00 and 00:00, no other hour
        ("noon", "time 13:00", "hour 13"),
        ("midnight", "time 12:00", "hour 12"),
        ("noon", "time 12:30", "hour 12"),
        ("晚上8点半", "time 20:00", "not the text's half past"),  # 半 is 30 minutes
        ("hace un año", "shift year -2", "'year -2'"),
        ("بعد 4 أيام", "shift day -4", "'day -4'"),
        ("de 1939 à 1945", "year 1939 / year 1946", "year '1946'"),
        # a numeric date of two readings is no date, beside a time too,
        # unless a joining word of a day-first language reads it day first
        ("12/09/2018 à 8h", "datetime 2018-12-09T08:00", "ambiguous"),
        ("3/5/79", "date '79-05-03", "ambiguous"),
        ("12/09/2018 at 8am", "datetime 2018-09-12T08:00", "ambiguous"),
        ("12/09/2018 at 8am", "datetime 2018-12-09T08:00", "ambiguous"),
        ("12/09/2018 8h", "datetime 2018-09-12T08:00", "ambiguous"),
        # a decimal comma is no date's separator (a mark of 8.5)
        ("nota 8,5 em matemática", "date --05-08", "apart"),
        # seconds written are read
        ("01.01.2000 00:00:01", "datetime 2000-01-01T00:00", "seconds"),
        # ظهرا (at noon) without its vowel marks is CLDR's ظهرًا
        ("6 أكتوبر 1973 الساعة 2:00 ظهرا", "datetime 1973-10-06T02:00", "disagrees"),
        ("Monday to Friday", "weekday MON / weekday SAT", "weekday 'SAT'"),
        ("Viernes Santo de 2022", "easter -3 2022", "'easter -3'"),
        # a relative word the form does not use
        ("明天下午5点", "time 17:00", "'明天', a time relative to now"),
        ("yesterday at 5pm", "time 17:00", "'yesterday'"),
        ("next week, 3 May", "date --05-03", "'next week'"),
        ("today at 5pm", "time 17:00", "'today'"),
        ("в марте 2015 года", "year 2015", "names a month (03)"),
        ("у травні 2019 року", "year 2019", "names a month (05)"),
        # a zone written and dropped; a day written beside a month word
        ("الساعة ٥ مساء", "time 05:00", "disagrees"),
        ("الساعة 2:00 ظهرا", "time 02:00", "disagrees"),
        ("الساعة 5 ظهرا", "time 17:00", "disagrees"),
        ("الثلاثاء القادم الساعة ٣ عصراً", "weekday +1 TUE at 03:00", "disagrees"),
        ("às 3 da tarde", "time 03:00", "disagrees"),
        ("10:00 EST", "time 10:00", "zone 'EST'"),
        ("2014-12-12T08:25:00Z", "datetime 2014-12-12T08:25:00", "zone 'Z'"),
        ("am 1. Januar", "month --01", "number 1"),
    ],
)  # fmt: skip
def test_a_form_the_text_does_not_write_is_refused_naming_what(text, form, named):
    reason = _reason(text, form)
    assert reason and named in reason, reason


def test_the_words_are_the_run_languages():
    assert _reason("vor 3 Tagen", "shift day -3", ("de",)) == ""
    # A run taught English and Spanish does not read German's "vor".
    assert "'day -3'" in _reason("vor 3 Tagen", "shift day -3", ("en", "es"))
    assert "'easter +1'" in _reason("Ostermontag", "easter +1", ("en",))
    assert _reason("Ostermontag", "easter +1", ("de",)) == ""


def test_a_form_outside_the_grammar_is_the_parsers():
    with pytest.raises(FormError):
        _reason("yesterday", "shift dya -1")


def _answer(text, form, score=-0.1):
    ok = form_answers.form_checks(text, form, *WORDS) and score > -1
    item = {"input": text, "text": form, "score": score, "valid": ok, "reason": ""}
    return form_answers.answer(
        item,
        form,
        parse_reference("2026-01-15T09:00:00"),
        "future",
        -1.0,
        lambda *a: "an ISO date's reason",
        lambda t, f: form_answers.grounding_reason(t, f, *WORDS),
    )


def test_an_ungrounded_form_is_not_valid_and_the_answer_says_why():
    got = _answer("yesterday", "easter -2")
    assert not got["valid"] and got["text"] == ""
    assert got["form"] == "easter -2"
    assert got["reason"].startswith("the form's 'easter -2' is not written")
    assert _answer("Good Friday", "easter -2")["valid"]


def test_a_holiday_by_name_is_grounded_by_the_name_not_as_an_iso_date():
    # `Christmas 2015` names no month: the ISO date's checks refuse it.
    assert form_answers.form_checks("Christmas 2015", "date 2015-12-25", *WORDS)
    got = _answer("Christmas 2015", "date 2016-12-25")
    assert not got["valid"] and "year '2016'" in got["reason"]
    # Any other absolute day is still an ISO date's, with its reason.
    assert _answer("3 May 1979", "date 1989-05-03")["reason"] == "an ISO date's reason"


def test_a_part_the_text_does_not_write_is_named_as_the_references():
    for text, form, part in [
        ("3 May", "date --05-03", "year"),
        ("March", "month --03", "year"),
        ("5:30 pm", "time 17:30", "day"),
        ("Good Friday", "easter -2", "year"),
        ("the last Sunday of March", "nth -1 SUN --03", "year"),
    ]:
        got = _answer(text, form)
        assert got["valid"] and got["parts"].get(part) == "reference", (form, got)


@pytest.mark.parametrize(
    "text, form",
    [
        ("أول إثنين من سبتمبر", "nth 1 MON --09"),
        ("آخر جمعة من مايو", "nth -1 FRI --05"),
        ("أول أحد من مايو", "nth 1 SUN --05"),
        ("Mayıs ayının ikinci pazarı", "nth 2 SUN --05"),
        ("Ekim ayının son salısı", "nth -1 TUE --10"),
    ],
)
def test_an_nth_weekday_in_its_own_words_is_grounded_beside_an_ordinal(text, form):
    # Arabic's construct writes the weekday without its article and
    # Turkish's possessive with its suffix (expression_words.json `nth`
    # `weekdays`): CLDR's names are neither.
    assert _reason(text, form) == ""


@pytest.mark.parametrize(
    "text, form",
    [("أحد القادم", "weekday +1 SUN"), ("pazarı", "weekday 0 SUN")],
)
def test_those_words_name_no_weekday_alone(text, form):
    # Alone, Arabic "أحد" is also "one" (في أحد الأيام, one day): the nth
    # words' own weekday names count beside an ordinal only.
    assert _reason(text, form) == "the form's weekday 'SUN' is not written in the text"


def test_a_day_and_a_month_of_no_year_read_both_ways_but_with_dots():
    from attention_zoo.applications.dates.form_numeric import yearless_readings

    assert yearless_readings("1/2") == {"--01-02", "--02-01"}
    assert yearless_readings("1 - 2") == {"--01-02", "--02-01"}
    assert yearless_readings("4.10") == {"--10-04"}  # dots: day first
    assert yearless_readings("12. 4") == {"--04-12"}
    assert yearless_readings("31/12") == {"--12-31"}
    assert yearless_readings("29/2") == {"--02-29"}  # a leap year has it
    assert yearless_readings("30/2") == set()
