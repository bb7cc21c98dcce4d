"""Latvian: what the gates and the speech-act reader know of it, by kind (the kinds: domain/lexicon.py). Added in
session 18. Words are written with their marks and read without them too (`either`: "dzivoju Riga"); a word that
inflects is a stem. Living words make a Latvian home need one ("dzīvoju", "pārcēlos", "mājās") or a question with
one ("Kur jūs dzīvojat?"). "labdien" (good day) is no pleasantry word here: an opening "labdien," filed as a value
is told a greeting by its place (domain/gates.py, `value_is_greeting`). No naming or stance words."""

from memory_pipeline.domain.languages._letters import either, with_bare

_POSSESSIVE = r"(?:mans|mana|mani|manas|manu|manam|manai|manā|maniem|manām|mūsu)"
_RELATIVE = (r"(?:vīr(?:s|u|am|a|i|iem)|siev\w*|brāl\w*|brāļ\w*|mās(?:a|u|ai|as|ām)|mamm\w*|māt\w*|tēt\w*|"
             r"tēv(?:s|u|am|a|i)|dēl\w*|meit\w*|bērn\w*|draug\w*|draudzen\w*|kolēģ\w*|"
             r"kaimiņ\w*|vecāk\w*|vecmāmiņ\w*|vectēv\w*|tant\w*|onkul\w*|brālēn\w*|māsīc\w*|puis\w*|partner\w*)")

LEXICON = {
    "companion": r"\b(?:ar|kopā ar|kopa ar)",
    # "mana māsa", "ar manu vīru"; a relative opening the sentence needs no possessive ("Māsa dzīvo Liepājā").
    "other_person": either(
        rf"\b{_POSSESSIVE}\s+{_RELATIVE}\b"
        r"|^\W*(?:viņš|viņa|viņi|viņas|māsa|brālis|mamma|māte|tētis|tēvs|vīrs|sieva|dēls|meita)\b"),
    "self": either(r"\b(?:es|mēs|man|mums|mūs|esmu|esam)\b"),
    # "ja" (if) is German, Norwegian or Slovenian "yes" and Croatian "I": it opens a Latvian condition only before
    # a Latvian letter or pronoun ("Ja es pārceltos uz Rīgu, ..."). A hedge set off by a comma opening the sentence
    # ("Varbūt, pārcelšos uz Liepāju") holds all of it.
    "conditional": r"^\W*(?:(?:un|bet)\s+)?ja\s+(?=[^.!?]*(?:[āēīūķļņģ]|\b(?:es|mēs|mes|tu|jūs|jus|man|mums|"
                   r"jums|būtu|butu)\b))|" + either(r"^\W*(?:varbūt|laikam|droši\s+vien|iespējams)\s*,"),
    "hedge": either(r"\b(?:varbūt|laikam|droši\s+vien|iespējams|diez\s+vai)\b|"
                    r"\bneesmu\s+(?:īsti\s+)?pārliecināt\w*|\bnezinu,?\s+vai\b"),
    "undecided": either(
        r"\b(?:(?:pa|ap|pār)domāšu|(?:pa|ap|pār)domāsim|jāpadomā|jāapdomā|jāpārdomā|"
        r"neesmu\s+(?:vēl\s+)?(?:izlēm(?:is|usi)|izšķīr(?:ies|usies))|"
        r"neesam\s+(?:vēl\s+)?(?:izlēmuši|izšķīrušies)|"
        r"vēl\s+neesmu\s+izlēm\w*|nevaru\s+(?:izlemt|izšķirties)|svārstos|šaubos|izlemšu|izlemsim|"
        r"došu\s+ziņu|paziņošu|vēl\s+nezinu|nezinu\s+vēl)\b"),
    # "tu dzīvo" is "you live" and "she lives": read after "tu" or "kur" only.
    "living": either(
        r"\b(?:dzīvo(?:ju|jam|jat|jām|jāt|ji)|(?:tu|kur)\s+dzīvo|pārcēl(?:os|āmies|ies|āties|usies)|"
        r"pārceļ(?:os|amies)|pārcel(?:šos|simies)|pārvāc(?:os|āmies|ies|usies|ušies)|pārvāk(?:šos|simies)|"
        r"(?:no\s+)?mājās|no\s+mājām|(?:manas|mūsu)\s+mājas|(?:mans|mūsu)\s+dzīvoklis|"
        r"(?:mana|manu|mūsu)\s+(?:jaunā\s+|jauno\s+)?adres(?:e|i|ē))\b"),  # a group: `either` writes "ē" as a class
    "interrogative": either(
        r"^\W*(?:kas|kur|kad|kāpēc|kādēļ|kurš|kura|kuru|kuri|kuras|kāds|kāda|kādu|kādi|kādas|kā|cik|vai|kurp|"
        r"uz\s+kurieni|no\s+kurienes|kam|ko|varat|vari|varētu|ir|tu|jūs|jums|jūsu|tev)\b")
    # ... or opens with a verb said to "you" ("Strādājat sestdien?")
    + r"|^\W*[^\W\d_]+(?:at|āt)\b",
    "pleasantry_words": with_bare("paldies liels lielais ļoti jums tev sveiki sveiks sveika čau atā uz redzēšanos "
                                  "labrīt labvakar ok okej labi jauku dienu vakaru"),
    "clause_joiner": either(r"\s+(?:un|bet|taču|tomēr|kamēr)\s+"),
    "assent": r"^\s*(?:jā|ja(?=\s*[,.!]|\s*$))(?!\w)|" + either(
        r"^\s*(?:labi|protams|noteikti|okej|ok|lai\s+notiek|piekrītu|dariet\s+to|dari\s+to)\b"),
    "decided": either(r"\b(?:nolēmu|nolēmām|izlēmu|izlēmām|izlēmis|izlēmusi|izlēmuši|nolemts|nolemta)\b"),
    # Contact channels by name (domain/value_support.py: a model writes "email" of a quote that says it in its own words).
    "channel_names": {
        "email": r"\be-?past\w*|\be-?mail\w*",
        "phone": r"\bt[āa]lru\w*|\btelefon\w*|\bzvan\w*|\bpiezvan\w*",
        "sms": r"\bsms\w*|\b[īi]sz[iņ]\w*",
    },
}
