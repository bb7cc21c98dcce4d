"""Serbian, in both its scripts: what the gates and the speech-act reader know of it, by kind (the kinds:
domain/lexicon.py). Added in session 18. Each entry is written once in Latin letters and read in Cyrillic too
(`cyrillic`: "živim" -> "живим") and without marks (`either`: "zivim"); a word that inflects is a stem. A line in
Latin letters scored Serbian is not told (domain/language.py lists Serbian among the scripts of their own) and
is read with every language's words, these among them. Living words make a Serbian home need one ("živim",
"preselio sam se", "kod kuće") or a question with one ("Где живите?"). Read with Croatian (`READ_WITH`): a short
line scores Serbian, Croatian and Bosnian nearly alike. Macedonian, told but without data of its own, is read as
Serbian, the language beside it with data (domain/language.py): its own forms are here too (`_MK`: "Живеам во
Скопје", "Каде живеете?"). No naming or stance words."""

from memory_pipeline.domain.languages._letters import cyrillic, either, with_bare

READ_WITH = ("hr",)


def _both(source: str) -> str:
    """A Latin pattern source and its Cyrillic twin, as one alternation."""
    return f"{either(source)}|{cyrillic(source)}"


_POSSESSIVE = (r"(?:moj|moja|moje|moji|moju|mog|moga|mojeg|mojem|mojoj|mojim|mojih|naš|naša|naše|naši|našu|"
               r"našeg|našem|našoj|našim|naših)")
_RELATIVE = (r"(?:muž\w*|suprug\w*|žen[aeiou]|brat\w*|braća|sestr\w*|mam[aeiou]|majk\w*|tat[aeiou]|otac|oc[aeu]|"
             r"sin\w*|ćerk\w*|kćer\w*|kći|dec[aeiou]|dečic\w*|prijatelj\w*|drug|drugar\w*|koleg\w*|"
             r"komšij\w*|komšinic\w*|sused\w*|roditelj\w*|dečk\w*|devojk\w*|partner\w*|bak[aeiou]|bab[aeiou]|"
             r"ded[aeiou]|deka|tetk\w*|tet[aeiou]|ujak\w*|ujn\w*|stric\w*|rođak\w*|svekr\w*|tast\w*|"
             r"tašt\w*)")

# A relative named with "my" after it: "sestra mi", "сестра ми" (Macedonian says it so).
_MINE_AFTER = r"(?:sestra|brat|mama|majka|tata|otac|muž|suprug|supruga|žena|sin|ćerka|kći)\s+mi\b"

# Macedonian (Cyrillic only): words of each kind that Serbian writes otherwise.
_MK = {
    "other_person": r"(?<!\w)(?:мојата|мојот|моите|нашата|нашиот|нашите)\s+(?:сестра|брат|мајка|татко|сопруг|"
                    r"сопруга|син|ќерка|деца|пријател\w*|колег\w*|родители|баба|дедо)(?!\w)"
                    r"|(?<!\w)(?:мајка|татко|ќерка|сопругата|сопругот)\s+ми(?!\w)",
    "self": r"(?<!\w)(?:јас|ние)(?!\w)",
    "hedge": r"(?<!\w)(?:можеби|веројатно|не\s+сум\s+сигур(?:ен|на))(?!\w)",
    "undecided": r"(?<!\w)(?:ќе\s+размисл(?:ам|име)|(?:уште\s+)?не\s+сум\s+(?:се\s+)?одлучил[аи]?|"
                 r"се\s+двоумам)(?!\w)",
    "living": r"(?<!\w)(?:живеам|живееме|живееш|живеете|живеев\w*|(?:се\s+)?(?:пре|до)селив\w*|дома)(?!\w)",
    "interrogative": r"^\W*(?:каде|зошто|колку|дали|кој|која|кое|кои)(?!\w)",
    "pleasantry_words": "благодарам фала довидување",
}

_PLEASANTRIES = ("hvala lepa puno vam ti zdravo ćao čao pozdrav pozdravi doviđenja prijatno vidimo se ok okej super "
                 "dobar dan jutro veče laku noć molim")

LEXICON = {
    "companion": _both(r"\b(?:s|sa|zajedno s|zajedno sa)"),
    # "moja sestra", "sa mojim mužem"; a relative opening the sentence needs no possessive ("Sestra živi u Nišu").
    "other_person": _MK["other_person"] + "|" + _both(
        rf"\b{_POSSESSIVE}\s+{_RELATIVE}\b|\b{_MINE_AFTER}"
        r"|^\W*(?:on|ona|oni|one|ono|sestra|brat|mama|tata|otac|muž|suprug|supruga|žena|sin|ćerka|kći)\b"),
    "self": _MK["self"] + "|" + _both(r"\b(?:ja(?!\s*[,!.])|mi|me|mene|meni|mnom|nas|nama|nam|smo|jesam)\b"),
    "conditional": _both(r"^\W*(?:(?:i|a|ali)\s+)?(?:ako|ukoliko|kad(?:a)?\s+bi(?:h|smo|ste)?|"
                         r"da\s+(?:sam|smo|imam|imamo|mogu))\b|^\W*(?:možda|verovatno|vjerovatno|valjda)\s*,")
    + r"|^\W*(?:можеби|веројатно)\s*,",
    "hedge": _MK["hedge"] + "|" + _both(
        r"\b(?:možda|verovatno|vjerovatno|valjda)\b|\bnis(?:am|mo)\s+(?:baš\s+|još\s+)?sigurn\w*"),
    "undecided": _MK["undecided"] + "|" + _both(
        r"\b(?:(?:po)?(?:raz|pro)misli(?:t\s+)?ć(?:u|emo)|"
        r"(?:moram|moramo|treba|trebam)\s+(?:još\s+)?"
        r"(?:(?:po)?(?:raz|pro)misliti|da\s+(?:po)?(?:raz|pro)mislim)|"
        r"(?:da|dajte\s+da|pustite\s+me\s+da)\s+(?:još\s+)?(?:po)?(?:raz|pro)mislim|"
        r"ni(?:sam|smo)\s+(?:se\s+)?(?:još\s+)?(?:se\s+)?odluči(?:o|la|li|le)|neodluč\w*|"
        r"dvoumim\s+se|premišljam\s+se|kolebam\s+se|ne\s+mogu\s+(?:da\s+se\s+odlučim|se\s+odlučiti)|"
        r"odluči(?:t\s+)?ć(?:u|emo)|javi(?:t\s+)?ć(?:u|emo)|javim\s+(?:vam|ti)|još\s+ne\s+znam|ne\s+znam\s+još)\b"),
    "living": _MK["living"] + "|" + _both(
        r"\b(?:živ(?:im|imo|iš|ite|eo|ela|eli|ele|io|jela|jeli)|stanuj(?:em|emo|eš|ete)|stanova(?:o|la|li)|"
        r"preseli(?:o|la|li|le|m|mo|š|te)|preseli(?:t\s+)?ć(?:u|emo)|dosel(?:io|ila|ili|ile|im|imo)|"
        r"sel(?:im|imo)\s+se|(?:kod|od)\s+kuće|(?:moj|naš)\s+(?:dom|stan)|(?:moja|naša)\s+kuća|"
        r"(?:moja|naša|moju|našu)\s+(?:nova\s+|novu\s+)?adres[aeu])\b"),
    # A yes/no question puts "li" after its first word ("Da li ...?", "Imate li ...?").
    "interrogative": _MK["interrogative"] + "|" + _both(
        r"^\W*(?:šta|što|gde|gdje|kada|kad|zašto|ko|koga|kome|kako|koliko|koj[iaeu]|kojeg|kakav|kakv[aoie]|"
        r"kuda|odakle|čiji|čija|čije|jel|vi|ti|[^\W\d_]+\s+li)\b")
    # ... or opens with a verb said to "you" ("Imate popust?", "Радите ли суботом?")
    + r"|^\W*[^\W\d_]+(?:ate|ite|ete|aš|iš|eš)\b|^\W*[^\W\d_]+(?:ате|ите|ете|аш|иш|еш)\b",
    "pleasantry_words": f"{with_bare(_PLEASANTRIES)} {cyrillic(_PLEASANTRIES)} {_MK['pleasantry_words']}",
    "clause_joiner": _both(r"\s+(?:i|a|ali)\s+"),
    "assent": _both(r"^\s*(?:da(?=\s*[,.!]|\s*$)|može|važi|naravno|svakako|u\s+redu|dogovoreno|okej|ok|"
                    r"slažem\s+se|samo\s+napred)\b"),
    "decided": _both(r"\b(?:odlučio|odlučila|odlučili|odlučile|odlučeno)\b"),
    # Contact channels by name (domain/value_support.py: a model writes "email" of a quote that says it in its own words).
    "channel_names": {
        "email": r"\be-?mail\w*|\bmejl\w*|(?<!\w)имејл\w*|(?<!\w)мејл\w*",
        "phone": r"\btelefon\w*|\bpozov\w*|(?<!\w)телефон\w*",
        "sms": r"\bsms\w*|\bporuk\w*|(?<!\w)смс\w*|(?<!\w)порук\w*",
    },
}
