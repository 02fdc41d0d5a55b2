"""A choice between times is no point of time: "May or June" is no May.

The grammar writes one point or one span; a text offering two ("May or
June", "Monday or Tuesday", "3 or 4 May 2015") holds the words of each,
and forms56 answered "May or June" as May, valid (an interval of the two
is refused for want of a joiner, `form_joins`; one of them alone was
not). So a text that writes a language's word for "or" (CLDR's list
pattern of two alternatives, `choice_words`) makes no answer
(`choice_disagreement`, asked of every answer as the street rule is:
`form_answers`), naming the word.

Left out are the words that are other languages' words in the texts the
generator writes (`OTHER_WORDS`): Dutch "of" is English's, Spanish and
Italian "o" are Polish's, Portuguese's and Czech's, Romanian "sau" is
Vietnamese's "after" (tests/applications/dates/test_form_choices.py).
"""

from __future__ import annotations

import functools

from attention_zoo.applications.dates import form_words, phrase_spans
from attention_zoo.applications.dates.expression_pairs import list_word
from attention_zoo.applications.dates.formats import LANGUAGES, LOCALES

OTHER_WORDS = frozenset({"of", "o", "sau"})


def choice_words(language: str) -> str:
    """The language's word for "or" (CLDR's list of two alternatives,
    `list_word`)."""
    return phrase_spans.phrase(list_word(language, "or"), ends=" ")


@functools.lru_cache(maxsize=8)
def _table(languages=LANGUAGES) -> dict[str, bool]:
    """`{phrase: is a choice}`: the words for "or" of `languages`, and the
    holiday names, in which such a word is a name's."""
    table = {p: False for p in form_words.holiday_phrases(languages)}
    for language in languages:
        word = choice_words(language) if language in LOCALES else ""
        if word and word not in OTHER_WORDS:
            table[word] = True
    return table


def choice_disagreement(text: str, languages=LANGUAGES) -> str:
    """Why `text` makes no answer: a word for "or" it writes; "" when it
    writes none."""
    word = phrase_spans.first_marked(text, _table(tuple(languages)))
    if word is None:
        return ""
    return f"the text writes {word!r}, a choice between times, which no form writes"
