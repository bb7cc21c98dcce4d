"""Lithuanian: what the gates and the speech-act reader know of it, by kind (the kinds: domain/lexicon.py). Added in
session 18. Words are written with their marks and read without them too (`either`: "gyvenu Kaune, persikeliau");
a word that inflects is a stem. Living words make a Lithuanian home need one ("gyvenu", "persikėliau", "namuose")
or a question with one ("Kur gyvenate?"). No naming or stance words."""

from memory_pipeline.domain.languages._letters import either, with_bare

_RELATIVE = (r"(?:vyr(?:as|ą|o|ui|u)|žmon(?:a|ą|os|ai|oje)|brol\w*|ses(?:uo|er\w*)|mam\w*|motin\w*|tėt\w*|"
             r"tėv(?:as|ą|o|ui|ai|ų|ams|us)|sūn(?:us|ų|ui|aus|umi)|dukr\w*|dukter\w*|duktė|vaik\w*|draug\w*|"
             r"koleg\w*|kaimyn\w*|močiut\w*|senel\w*|tet(?:a|ą|os|ai)|dėd(?:ė|ę|ės|ei)|"
             r"pusbrol\w*|pusseser\w*|mergin\w*|partner\w*)")

LEXICON = {
    "companion": r"\b(?:su|kartu su)",
    # "mano sesuo", "su mano vyru"; a relative opening the sentence needs no possessive ("Sesuo gyvena Kaune").
    "other_person": either(
        rf"\b(?:mano|mūsų)\s+{_RELATIVE}\b"
        r"|^\W*(?:jis|ji|jie|sesuo|brolis|mama|tėtis|tėvas|vyras|žmona|sūnus|dukra|duktė)\b"),
    # Not read without its mark: "as" is English.
    "self": r"\b(?:aš|mes|mane|man|mums|mus|manęs|manes|esu|esame)\b",
    # A hedge set off by a comma opening the sentence ("Galbūt, persikelsiu į Kauną") holds all of it.
    "conditional": r"^\W*(?:(?:ir|bet)\s+)?(?:jei|jeigu)\b|"
                   + either(r"^\W*(?:galbūt|gal|turbūt|tikriausiai|greičiausiai)\s*,"),
    "hedge": either(r"\b(?:galbūt|gal|turbūt|tikriausiai|greičiausiai|ko\s+gero)\b|\bnesu\s+(?:visai\s+)?tikr\w*|"
                    r"\bnežinau,?\s+ar\b"),
    "undecided": either(
        r"\b(?:pagalvosiu|pagalvosim|pagalvosime|apgalvosiu|apsvarstysiu|apsvarstysime|"
        r"(?:turiu|turime|reikia|reikės|man\s+reikia)\s+(?:dar\s+)?(?:pa|ap)galvoti|"
        r"(?:dar\s+)?ne(?:apsisprendžiau|apsisprendėme|nusprendžiau|nusprendėme)|"
        r"nesu\s+(?:dar\s+)?apsisprend(?:ęs|usi)|dvejoju|svarstau|negaliu\s+(?:apsispręsti|nuspręsti)|"
        r"nuspręsiu|nuspręsime|apsispręsiu|apsispręsime|pranešiu|dar\s+nežinau|nežinau\s+dar)\b"),
    # "gyvena" is "lives" of someone else: not a living word.
    "living": either(
        r"\b(?:gyven(?:u|ame|i|ate|au|ai|ome|ote)|persikėl(?:iau|ėme|ei|ėte)|persikeli(?:u|ame)|"
        r"persikraus(?:čiau|tėme|tau|tome)|kraust(?:ausi|omės)|persikel(?:siu|sime)|kraustysi(?:uosi|mės)|"
        r"namuose|namie|iš\s+namų|(?:mano|mūsų)\s+(?:naujas\s+|naują\s+)?"
        r"(?:namai|butas|adresas|adresą))\b"),
    "interrogative": either(
        r"^\W*(?:kas|kur|kada|kodėl|koks|kokia|kokie|kokios|kokį|kokią|kuris|kuri|kurie|kurios|kurį|kurią|kaip|"
        r"kiek|ar|iš\s+kur|kieno|ką|kam|kuo|galite|galėtumėte|gal\s+(?:galite|galėtumėte|žinote|yra)|jūs|tu|jums|tau|"
        r"jūsų)\b")
    # ... or opens with a verb said to "you" ("Turite nuolaidų?", "Dirbate šeštadienį?")
    + r"|^\W*[^\W\d_]+(?:ate|ite|ote|ėte)\b",
    "pleasantry_words": with_bare("ačiū labai dėkoju dėkui dėkojame labas laba diena sveiki sveikas sveika viso "
                                  "gero geros dienos vakaro nakties iki pasimatymo ok okei gerai prašau jums tau"),
    "clause_joiner": either(r"\s+(?:ir|bet|tačiau)\s+"),
    "assent": either(r"^\s*(?:taip|gerai|žinoma|aišku|okei|ok|sutinku|be\s+abejo|darykite|padarykite|pirmyn)\b"),
    "decided": either(r"\b(?:nusprendžiau|nusprendėme|apsisprendžiau|apsisprendėme|nuspręsta|pasirinkau|"
                      r"pasirinkome)\b"),
    # Contact channels by name (domain/value_support.py: a model writes "email" of a quote that says it in its own words).
    "channel_names": {
        "email": r"\b(?:el\.?\s*)?pa[šs]t\w*|\be-?mail\w*",  # "el. paštu": the full stop may part it
        "phone": r"\btelefon\w*|\bskambin\w*|\bpaskambin\w*",
        "sms": r"\bsms\w*|\b[žz]inut\w*",
    },
}
