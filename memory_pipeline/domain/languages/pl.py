"""Polish: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Living words but no naming or
stance words: the gates that reject for a missing one let Polish through to the checks of every language."""

LEXICON = {
    # Naming since session 20 (a review's probes): the first person's phrases and the assistant's question.
    "naming": r"\b(?:nazywam się|mam na imię|moje imię|moje nazwisko|jak się nazywasz|pan się nazywa|pani się nazywa|"
              r"imię i nazwisko)\b",
    "weak_naming": r"jestem",
    "forget_nouns": {"name": r"\b(?:imi|nazwisk)"},
    "companion": r"\b(?:z|ze|razem z)",
    "reported_speech": r"\b(?:powiedział[a]? że|mówi że|mówił[a]? że)\b",
    "other_person":
        r"\b(?:mój|moja|moi|moje|mojego|mojej|nasz|nasza|nasi|nasze)\s+(?:mąż|męża|żona|żonę|brat|siostra|"
        r"mama|matka|tata|ojciec|syn|córka|dzieci|przyjaciel|przyjaciółka|przyjaciele|kolega|koleżanka|szef|"
        r"szefowa|sąsiad|sąsiadka|rodzice|chłopak|dziewczyna)\b|^\W*(?:on|ona|oni|one)\b",
    "self": r"\b(?:ja|my|mnie|nas)\b",
    # "gdyby" takes the person's ending: "Gdybym", "Gdybyśmy"
    "conditional": r"^\W*(?:(?:i|a|ale)\s+)?(?:jeśli|jeżeli|(?:gdy|jak)by(?:m|ś|śmy|ście)?)\b",
    "hedge": r"\b(?:może|chyba|prawdopodobnie|nie jestem pewn[ya])\b",
    "assent": r"^\s*(?:tak|jasne|dobrze|ok|zrób to|zgoda)\b",
    "undecided": r"\b(?:zastanowię się|pomyślę|jeszcze nie zdecydował[ae]m|waham się między|zdecyduję później)\b",
    "living": r"\b(?:mieszkam|mieszkamy|przeprowadził[ae]m|przeprowadziliśmy|przeprowadzam)\b",
    "interrogative": r"^\W*(?:co|gdzie|kiedy|dlaczego|czemu|kto|który|która|które|jak|ile|czy)\b",
    "pleasantry_words": "dziękuję dzięki bardzo świetnie spoko cześć dzień dobry do widzenia",
    "one_off": r"\b(?:tylko|wyjątkowo)\s+(?:tym\s+razem|dzisiaj|dziś)\b",
    "former": r"\bkiedyś\b|\bwcześniej\b|\bdawniej\b",
    "desire": r"\b(?:chcę|chce|chcemy|chciałbym|chciałabym|marzę|myślę\s+o)\b",
    "clause_joiner": r"\s+(?:i|a|ale)\s+",
    "decided": r"\b(?:zdecydowa\w*|postanowi\w*)",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"(?:już|juz) nie (?:lubię|lubie|kocham|podoba)|przestał\w* (?:lubić|lubic)",
    "travel": r"\b(?:podróż\w*|podroz\w*|wycieczk\w*|wakacj\w*|urlop\w*|zwiedz\w*)",
    "origin": r"\b(?:dorastał\w*|wychował\w*|urodził\w*|pochodzę)\b",
    "channel_names": {
        "email": r"\b(?:e-?)?mail\w*",
        "phone": r"\btelefon\w*|\bdzwo\w*|\bzadzwo\w*",
        "sms": r"\bsms\w*|\besemes\w*",
    },
    "negation": r"\b(?:nie|nigdy)\b",
}
