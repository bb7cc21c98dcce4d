"""Slovenian: what the gates and the speech-act reader know of it, by kind (the kinds: domain/lexicon.py). Added in
session 18: a 1.5B model had filed "moja sestra se je ravno preselila v Koper" (my sister just moved to Koper) as
the user's home, and no Slovenian word was known. Words are written with their marks and read without them too
(`either`: "zivim v Mariboru"); a word that inflects is a stem. Living words make a Slovenian home need one
("živim", "preselil sem se", "doma") or a question with one ("Kje živite?"). Read with Croatian and Serbian
(`READ_WITH`): a short line scores the three nearly alike. No naming or stance words."""

from memory_pipeline.domain.languages._letters import either, with_bare

READ_WITH = ("hr", "sr")

LEXICON = {
    "companion": r"\b(?:z|s|skupaj z|skupaj s)",
    # "moja sestra", "mojo sestro", "z mojim možem"; a relative opening the sentence needs no possessive ("Sestra
    # živi v Kopru").
    "other_person": either(
        r"\b(?:moj|moja|moje|moji|mojo|mojega|mojemu|mojem|mojim|mojih|naš|naša|naše|naši|našo|našega|našemu|"
        r"našim|naših)\s+(?:mož\w*|žen[aieo]|brat\w*|sestr\w*|mam[aieo]|mati|mater\w*|oče|očet\w*|ati\w*|"
        r"sin\w*|hči|hčer\w*|hčerk\w*|otro\w*|prijatel\w*|sodelav\w*|sosed\w*|starš\w*|fant\w*|punc\w*|"
        r"dekle\w*|partner\w*|babic\w*|dedek|dedk\w*|tet[aieo]|stric\w*|bratran\w*|sestričn\w*|tast\w*|tašč\w*)\b"
        r"|^\W*(?:on|ona|oni|one|ono|sestra|brat|mama|oče|ati|mož|žena|sin|hči|hčerka)\b"),
    "self": r"\b(?:jaz|midva|midve|mi|me|mene|meni|mano|nas|nam|nama|sem|sva|smo)\b",
    # "če" (if) typed bare is "ce" only before a Slovenian verb: Romanian "Ce ..." (what) opens a question. A hedge
    # set off by a comma opening the sentence ("Mogoče, se preselim v Koper") holds all of it: the clause after the
    # comma states nothing either.
    "conditional": r"^\W*(?:(?:in|ampak|a)\s+)?(?:če|ko\s+bi|ce\s+(?:bi|bom|bova|bomo|sem|grem|imam))\b|"
                   + either(r"^\W*(?:mogoče|morda|verjetno|najbrž)\s*,"),
    "hedge": either(r"\b(?:mogoče|morda|verjetno|najbrž)\b|\bnisem\s+(?:še\s+|čisto\s+)?(?:prepričan|gotov)\w*"),
    "undecided": either(
        r"\b(?:(?:bom|bova|bomo)\s+(?:še\s+)?(?:pre|raz|po)mislil\w*|(?:pre|raz|po)mislil\w*\s+(?:bom|bova|bomo)|"
        r"(?:moram|morava|moramo|naj)\s+(?:še\s+)?(?:pre|raz|po)misli(?:ti|m|mo)|"
        r"ni(?:sem|sva|smo)\s+(?:se\s+)?(?:še\s+)?(?:se\s+)?odločil\w*|neodločen\w*|omahujem|oklevam|"
        r"se\s+ne\s+morem\s+odločiti|ne\s+morem\s+se\s+odločiti|(?:se\s+)?bom\s+odločil\w*|odločil\w*\s+se\s+bom|"
        r"še\s+ne\s+vem|ne\s+vem\s+še|(?:vam|ti)\s+(?:bom\s+)?(?:javim|javil\w*|sporočim|sporočil\w*))\b"),
    "living": either(
        r"\b(?:živ(?:im|iva|imo|iš|ite|el|ela|eli|ele)|stanuj(?:em|eva|emo|eš|ete)|stanoval\w*|"
        r"biva(?:m|va|mo|š|te)|prebiva(?:m|va|mo|š|te)|presel(?:il|ila|ili|ile|im|imo|iš|ite)\w*|"
        r"sel(?:im|imo)\s+se|se\s+sel(?:im|imo)|doma|(?:moj|naš|najin)\s+dom|(?:moje|naše|najino)\s+stanovanje|"
        r"(?:moj|naš|najin)\s+(?:novi\s+)?naslov|(?:moje|naše)\s+prebivališče)\b"),
    "interrogative": either(
        r"^\W*(?:kaj|kje|kdaj|zakaj|kdo|koga|komu|kako|koliko|kater[iaoe]|kakšn[aoei]|kakšen|kam|od\s+kod|"
        r"čigav\w*|ali|lahko|bi\s+lahko|mi\s+lahko|imate|imaš|ste|si|vi|ti|a\s+(?:je|so|ste|si|imate|lahko|mi))\b")
    # ... or a verb said to "you" ("Imate popust?", "Delate v soboto?"): the user's own statements say "I"
    + r"|^\W*[^\W\d_]+(?:ate|ite|ete|aš|iš|eš)\b",
    "pleasantry_words": with_bare("hvala lepa najlepša vam ti lep dan dober jutro večer živjo zdravo pozdravljeni "
                                  "pozdravljena pozdravljen pozdrav lp adijo nasvidenje na svidenje čao ok okej "
                                  "super prosim"),
    "clause_joiner": r"\s+(?:in|ampak|toda|vendar|a)\s+",
    "assent": either(r"^\s*(?:(?:ja|da)(?=\s*[,.!]|\s*$)|seveda|v\s+redu|okej|ok|prav|velja|dogovorjeno|"
                     r"vsekakor|kar\s+izvolite|dajte|naredite\s+to|naredi\s+to)\b"),
    "decided": either(r"\b(?:odločil|odločila|odločili|odločile|odločeno|sklenil|sklenila|sklenili)\b"),
    # Contact channels by name (domain/value_support.py: a model writes "email" of a quote that says it in its own words).
    "channel_names": {
        "email": r"\be-?po[šs]t\w*|\be-?mail\w*",
        "phone": r"\btelefon\w*|\bpokli[čc]\w*",
        "sms": r"\bsms\w*",
    },
}
