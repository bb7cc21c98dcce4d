"""Kazakh: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Added in session 17 after
a 1.5B model filed "Егер мен Алматыға көшсем, пәтер жалдау қанша тұрар еді?" (if I moved to Almaty, how much would
a flat cost?) as the user's home: until Kazakh was told apart from Russian (domain/language.py), Russian words read
it. No naming, living or stance words: the gates that reject for a missing one let Kazakh through to the checks of
every language."""

LEXICON = {
    "other_person":
        r"(?<!\w)(?:менің|біздің)\s+(?:әйелім|күйеуім|ағам|інім|әпкем|сіңлім|анам|әкем|ұлым|қызым|балаларым|досым|"
        r"достарым|бастығым|әріптесім|көршім|ата-анам)(?!\w)|^\W*(?:ол|олар)(?!\w)",
    "self": r"(?<!\w)(?:мен|біз|менің|маған|мені)(?!\w)",
    "conditional": r"^\W*(?:(?:бірақ|ал)\s+)?егер(?!\w)",
    "hedge": r"(?<!\w)(?:мүмкін|бәлкім|сенімді емеспін)(?!\w)",
    "interrogative": r"^\W*(?:не|қайда|қашан|неге|неліктен|кім|қандай|қалай|қанша|қай)(?!\w)",
    "pleasantry_words": "рахмет көп сәлем сәлеметсіз бе сау болыңыз",
    "clause_joiner": r"\s+(?:және|бірақ|ал)\s+",
    # The name noun, for an assistant's request for it ("Атыңыз бен қалаңызды жазыңызшы."): a word start, since
    # "Алматы" holds "аты".
    "forget_nouns": {"name": r"(?<!\w)(?:аты|есім)"},
}
