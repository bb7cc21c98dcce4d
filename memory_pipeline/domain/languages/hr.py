"""Croatian (and Bosnian, read as its neighbour with data): what the gates and the speech-act reader know of it, by
kind (the kinds: domain/lexicon.py). Added in session 18. Words are written with their marks and read without them
too (`either`: "zivim u Splitu", "razmislit cu"); a word that inflects is a stem. Living words make a Croatian home
need one ("živim", "preselio sam se", "kod kuće") or a question with one ("Gdje živite?"). Read with Serbian
(`READ_WITH`): a short line scores Croatian, Serbian and Bosnian nearly alike. No naming or stance words."""

from memory_pipeline.domain.languages._letters import either, with_bare

READ_WITH = ("sr",)

_POSSESSIVE = (r"(?:moj|moja|moje|moji|moju|mojeg|mojega|mojem|mojemu|mojoj|mojim|mojih|naš|naša|naše|naši|našu|"
               r"našeg|našega|našem|našoj|našim|naših)")
_RELATIVE = (r"(?:muž\w*|suprug\w*|žen[aeiou]|brat\w*|braća|sestr\w*|mam[aeiou]|majk\w*|mater|tat[aeiou]|otac|"
             r"oc[aeu]|sin\w*|kćer\w*|kći|ćerk\w*|djec\w*|dec[aeiou]|prijatelj\w*|drug|drugar\w*|koleg\w*|"
             r"susjed\w*|sused\w*|komšij\w*|komšinic\w*|roditelj\w*|dečk\w*|cur[aeiou]|djevojk\w*|devojk\w*|"
             r"partner\w*|bak[aeiou]|djed\w*|ded[aeiou]|tet[aeiou]|tetk\w*|ujak\w*|ujn\w*|stric\w*|rođak\w*|"
             r"rođakinj\w*|punac|punic\w*|svekr\w*|tast\w*|tašt\w*)")

LEXICON = {
    "companion": r"\b(?:s|sa|zajedno s|zajedno sa)",
    # "moja sestra", "s mojim mužem"; a relative opening the sentence needs no possessive ("Sestra živi u Zadru").
    "other_person": either(
        rf"\b{_POSSESSIVE}\s+{_RELATIVE}\b"
        r"|\b(?:sestra|brat|mama|majka|tata|otac|muž|suprug|supruga|žena|sin|kći|kćerka|ćerka)\s+mi\b"
        r"|^\W*(?:on|ona|oni|one|ono|sestra|brat|mama|tata|otac|muž|suprug|supruga|žena|sin|kći|kćerka|ćerka)\b"),
    # "ja," is Slovenian "yes" (a Slovenian line is read with these words).
    "self": either(r"\b(?:ja(?!\s*[,!.])|mi|me|mene|meni|mnom|nas|nama|nam|smo|jesam)\b"),
    # A hedge set off by a comma opening the sentence ("Možda, preselit ću se u Split") holds all of it.
    "conditional": either(r"^\W*(?:(?:i|a|ali)\s+)?(?:ako|ukoliko|kad(?:a)?\s+bi(?:h|smo|ste)?|"
                          r"da\s+(?:sam|smo|imam|imamo|mogu))\b"
                          r"|^\W*(?:možda|vjerojatno|vjerovatno|verovatno|valjda)\s*,"),
    "hedge": either(r"\b(?:možda|vjerojatno|vjerovatno|verovatno|valjda)\b|"
                    r"\bnis(?:am|mo)\s+(?:baš\s+|još\s+)?sigurn\w*"),
    "undecided": either(
        r"\b(?:(?:po)?(?:raz|pro)misli(?:t\s+)?ć(?:u|emo)|"
        r"(?:moram|moramo|trebam|trebamo|moraću)\s+(?:još\s+)?"
        r"(?:(?:po)?(?:raz|pro)misliti|da\s+(?:po)?(?:raz|pro)mislim)|"
        r"(?:da|dajte\s+da|pustite\s+me\s+da)\s+(?:još\s+)?(?:po)?(?:raz|pro)mislim|"
        r"ni(?:sam|smo)\s+(?:se\s+)?(?:još\s+)?(?:se\s+)?odluči(?:o|la|li|le)|neodluč\w*|"
        r"dvoumim\s+se|premišljam\s+se|kolebam\s+se|ne\s+mogu\s+(?:se\s+odlučiti|da\s+se\s+odlučim)|"
        r"odluči(?:t\s+)?ć(?:u|emo)|javi(?:t\s+)?ć(?:u|emo)|javim\s+(?:vam|ti)|još\s+ne\s+znam|ne\s+znam\s+još)\b"),
    "living": either(
        r"\b(?:živ(?:im|imo|iš|ite|io|jela|jeli|jele|eo|ela|eli|ele)|stanuj(?:em|emo|eš|ete)|stanova(?:o|la|li)|"
        r"preseli(?:o|la|li|le|m|mo|š|te)|preseli(?:t\s+)?ć(?:u|emo)|dosel(?:io|ila|ili|ile|im|imo)|"
        r"sel(?:im|imo)\s+se|(?:kod|od)\s+kuće|doma|(?:moj|naš)\s+(?:dom|stan)|(?:moja|naša)\s+kuća|"
        r"(?:moja|naša|moju|našu)\s+(?:nova\s+|novu\s+)?adres[aeu])\b"),
    # A yes/no question puts "li" after its first word ("Imate li ...?", "Da li ...?", "Je li ...?").
    "interrogative": either(
        r"^\W*(?:što|šta|gdje|gde|kada|kad|zašto|tko|ko|koga|kome|kako|koliko|koj[iaeu]|kojeg|kakav|kakv[aoie]|"
        r"kamo|kuda|odakle|čiji|čija|čije|jel|jeli|vi|ti|[^\W\d_]+\s+li)\b")
    # ... or opens with a verb said to "you" ("Imate popust?", "Radite u subotu?")
    + r"|^\W*[^\W\d_]+(?:ate|ite|ete|aš|iš|eš)\b",
    "pleasantry_words": with_bare("hvala lijepa lipa puno vam ti zdravo bok bog pozdrav pozdravi pozdravljam "
                                  "doviđenja dovidenja vidimo se ćao čao ok okej super dobar dan jutro večer laku "
                                  "noć molim sutra čujemo"),  # "hvala puno, vidimo se sutra": a farewell
    "clause_joiner": r"\s+(?:i|a|ali)\s+",
    "assent": either(r"^\s*(?:da(?=\s*[,.!]|\s*$)|može|naravno|svakako|u\s+redu|dogovoreno|okej|ok|važi|"
                     r"slažem\s+se|samo\s+naprijed|napravite\s+to|učinite\s+to)\b"),
    "decided": either(r"\b(?:odlučio|odlučila|odlučili|odlučile|odlučeno|odlučen[ao]?)\b"),
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\bviše ne volim\b|\bvise ne volim\b|\bviše mi se ne sviđa\b",
    "travel": r"\b(?:putovanj\w*|putujem\w*|izlet\w*|odmor\w*|posjet\w*)",
    "origin": r"\b(?:odrastao|odrasla|rođen|rodjen|rođena)\b",
    # Contact channels by name (domain/value_support.py: a model writes "email" of a quote that says it in its own words).
    "channel_names": {
        "email": r"\be-?mail\w*|\bmejl\w*",
        "phone": r"\btelefon\w*|\bmobitel\w*|\bnazov\w*|\bzov\w*",
        "sms": r"\bsms\w*|\bporuk\w*",
    },
}
