"""Weekday and month names as chats write them in many languages (domain.calendar_names, CLDR through Babel)."""

import pytest

from memory_pipeline.domain.calendar_names import fold, months_named, weekday_named, with_arabic_numerals

SATURDAY, SUNDAY, TUESDAY = 5, 6, 1


@pytest.mark.parametrize("said, code", [
    ("Chcę je obejrzeć w sobotę.", "pl"), ("تم حجز زيارة فني يوم السبت", "ar"), ("土曜日に行きます", "ja"),
    ("เสาร์นี้ว่างไหม", "th"), ("נתראה בשבת", "he"), ("Kommst du am Samstag?", "de"), ("в субботу", "ru")])
def test_a_weekday_is_named_in_the_chats_language_and_inflection(said, code):
    assert weekday_named(fold(said), SATURDAY, {code})
    assert not weekday_named(fold(said), SUNDAY, {code})
    assert not weekday_named(fold(said), SATURDAY)  # English only when the language is not told


def test_an_english_weekday_is_read_in_the_plural_but_not_inside_a_word():
    assert weekday_named(fold("We meet on Thursdays."), 3) and not weekday_named(fold("A sundae, please."), SUNDAY)


def test_a_weekday_of_several_words_is_not_read_by_its_stem():
    said = fold("hẹn gặp thứ ba")
    assert weekday_named(said, TUESDAY, {"vi"}) and not weekday_named(said, SATURDAY, {"vi"})


@pytest.mark.parametrize("said, month, code", [("до 27 марта", 3, "ru"), ("en octobre", 10, "fr"),
                                               ("九月七日开课", 9, "zh"), ("Ekim ayında", 10, "tr"),
                                               ("في سبتمبر", 9, "ar")])
def test_a_month_is_named_in_the_chats_language(said, month, code):
    assert month in months_named(fold(said), {code})


def test_a_short_month_name_that_is_a_common_word_is_not_read_nor_an_english_name_inflected():
    assert months_named(fold("May I ask something? Mais oui."), {"fr"}) == set()
    assert not weekday_named(fold("Ich hätte gern einen Sundae."), SUNDAY, {"de"})


def test_chinese_numerals_of_a_date_are_written_in_digits():
    assert with_arabic_numerals("九月七日开课，十二月二十五号") == "9月7日开课，12月25号"


def test_names_are_read_in_the_chats_language_only_and_chinese_ones_not_inside_other_words():
    assert not weekday_named(fold("на этой неделе"), SUNDAY, {"ru"})  # Bulgarian "неделя" is Sunday
    assert weekday_named(fold("в неделя"), SUNDAY, {"bg"})
    assert not weekday_named(fold("每周一次"), 0, {"zh"}) and weekday_named(fold("周一见"), 0, {"zh"})
    assert months_named(fold("十一月"), {"zh"}) == {11}
