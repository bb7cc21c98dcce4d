"""Weekday and month names as chats write them in many languages (domain.calendar_names, CLDR through Babel)."""

import pytest

from memory_pipeline.domain.calendar_names import fold, months_named, weekday_named, with_arabic_numerals

SATURDAY, SUNDAY, TUESDAY = 5, 6, 1


@pytest.mark.parametrize("said", ["Chcę je obejrzeć w sobotę.", "تم حجز زيارة فني يوم السبت", "土曜日に行きます",
                                  "เสาร์นี้ว่างไหม", "נתראה בשבת", "Kommst du am Samstag?", "в субботу"])
def test_a_weekday_is_named_in_any_language_and_inflection(said):
    assert weekday_named(fold(said), SATURDAY)
    assert not weekday_named(fold(said), SUNDAY)


def test_a_weekday_of_several_words_is_not_read_by_its_stem():
    assert weekday_named(fold("hẹn gặp thứ ba"), TUESDAY) and not weekday_named(fold("hẹn gặp thứ ba"), SATURDAY)


@pytest.mark.parametrize("said, month", [("до 27 марта", 3), ("en octobre", 10), ("九月七日开课", 9),
                                         ("Ekim ayında", 10), ("في سبتمبر", 9)])
def test_a_month_is_named_in_any_language(said, month):
    assert month in months_named(fold(said))


def test_a_short_month_name_that_is_a_common_word_is_not_read():
    assert months_named(fold("May I ask something? Mais oui.")) == set()


def test_chinese_numerals_of_a_date_are_written_in_digits():
    assert with_arabic_numerals("九月七日开课，十二月二十五号") == "9月7日开课，12月25号"
