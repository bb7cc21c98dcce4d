"""Yoruba: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Added in session 20: a
1.5B model filed the greeting "ẹ kú àárọ̀ o" (good morning) as the user's hometown. Greetings and thanks, written
with their tone marks and without them, as people type them, and other people (session 23); no naming, living or
stance words, so the gates that
reject for a missing one let Yoruba through to the checks of every language."""

_GREETINGS = "ẹ kú káàárọ̀ àárọ̀ ọ̀sán ìrọ̀lẹ́ alẹ́ o ọ ẹ ṣé ṣeun ẹ̀ ń lẹ́ pẹ̀lẹ́ bawo báwo ni dada dáadáa mo dúpẹ́ ọpẹ́"
_PLAIN = "e ku kaaaro aaro osan irole ale o e se seun pele bawo ni dada daadaa mo dupe ope modupe"

LEXICON = {
    "pleasantry_words": f"{_GREETINGS} {_PLAIN}",
    # My (or our) friend, husband, wife, mother, father, sibling, child, boss, colleague: someone else ("ọ̀rẹ́ mi,
    # Adébáyọ̀" is a friend's name, holdout set 11); with tone marks and without.
    "other_person": r"(?:ọ̀rẹ́|ọrẹ|ore|ọkọ|oko|ìyàwó|iyawo|ìyá|iya|màmá|mama|bàbá|baba|ẹ̀gbọ́n|egbon|àbúrò|aburo|"
                    r"ọmọ|omo|"
                    r"ọ̀gá|oga|alábàáṣiṣẹ́|alabaasise)\s+(?:mi|wa)(?!\w)",
}
