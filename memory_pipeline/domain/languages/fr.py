"""French: what the gates and the speech-act reader know of it, by kind (the kinds: domain/lexicon.py)."""

TEXT_SEARCH = "french"

LEXICON = {
    "companion": r"\b(?:avec)",
    "instruction": r"\benregistre[sz]?\s+que\b",
    "reported_speech": r"\b(?:a dit|disait|dit que|m'a dit)\b",
    "quoted_first_person": r"je\b|j'",
    "self_report": r"\bcomme je (?:l'ai )?(?:dit|disais)\b",
    "other_person":
        r"\b(?:mon|ma|mes|notre|nos)\s+(?:ami|amie|amis|femme|mari|fr[eè]re|s[oœ]ur|m[eè]re|p[eè]re|fils|fille|"
        r"coll[eè]gue|patron|cousin|cousine)\b"
        r"|^\W*(?:il|elle|ils|elles)\b(?!\s+(?:fait|faut|pleut|y a)\b)",
    "self": r"\b(?:je|j'|moi|nous)\b",
    "kidding": r"\b(?:je plaisante|c'est une blague|je rigole)\b",
    "conditional": r"^\W*(?:(?:et|mais)\s+)?si\b(?!,)",
    # A condition on a need of the one addressed (to reach the user, anything at all): the request after it
    # stands, whenever the need comes (domain/speech.py); no hypothetical about the user.
    "need_condition": r"^\W*(?:(?:et|mais)\s+)?(?:si\s+(?:jamais\s+)?(?:vous|tu)\s+(?:devez|voulez|avez besoin de|dois|veux|as besoin de)\s+me\s+(?:contacter|joindre|appeler|rappeler|écrire)|si\s+(?:jamais\s+)?(?:vous\s+avez|tu\s+as)\s+besoin\b|si\s+besoin\b|s\'il\s+y\s+a\s+(?:quoi\s+que\s+ce\s+soit|un\s+souci|quelque\s+chose))",
    "hedge": r"\bpeut-être\b",
    "undecided": r"\b(?:je vais (?:y )?(?:réfléchir|penser)|j'y (?:réfléchirai|penserai)|je réfléchis|"
                 r"je me renseigne|rien n'est fait|rien n'est décidé|"
                 r"laisse[zr]?-moi réfléchir|j'hésite|j'hésitais|je ne sais pas encore|(?:je n'ai|on n'a|nous "
                 r"n'avons) pas encore (?:décidé|choisi)|je déciderai|je (?:vous|te) (?:dirai|redirai)|"
                 r"pas encore décidé)\b",
    "moving_away": r"\b(?:continuent?\s+(?:d'|de\s+)|arrivent toujours|toujours en)",
    "away_from": r"\b(?:au lieu (?:de |d')|plutôt que |à la place (?:de |d'))",
    "wanted": r"\b(?:il (?:nous|me) (?:les |la |le )?faut|(?:nous )?avons besoin|j'ai besoin|je veux|nous voulons|"
              r"je voudrais|nous voudrions|désormais|à partir de maintenant|dorénavant)\b",
    "interrogative": r"^\W*(?:est-ce|où|quand|comment|pourquoi|quel|quelle|quels|quelles|combien)\b",
    "request": r"^\W*(?:pourriez|pouvez|peux)[- ]vous\b",
    "standing": r"\b(?:à partir de maintenant|désormais|toujours)\b",
    "pleasantry_words": "merci beaucoup bonjour salut bonsoir au revoir",
    "filler_words": "bon alors ben eh",
    "question_tail": r"^\W*(?:ou|n'est-ce pas|c'est ça)\b",
    "one_off": r"\b(?:juste|seulement|uniquement)\s+(?:pour\s+)?cette\s+fois\b|\bpour\s+cette\s+fois\b",
    "former": r"\bautrefois\b|\bauparavant\b|\bavant\b|\bprécédemment\b",
    "desire": r"\b(?:veux|voudrais|voudrions|aimerais|aimerions|rêve\s+de|j\'aimerais|je\s+pense\s+à)\b",
    "clause_joiner": r"\s+(?:et|mais)\s+",
    "naming": r"\b(?:nom|prénom|appelle|appelez|appeler)\b",
    "weak_naming": r"je suis|moi,? c'est",
    # "je suis sur Lyon": colloquial for living or working in a city.
    "living": r"\b(?:habite|habitons|habitez|habites|vivez|vis|vit|installée?s?|déménagée?s?|chez moi|chez nous|"
              r"basée?s?|suis sur|sommes sur|on est sur)\b",
    "stance": r"\b(?:aim|ador|détest|deteste|préf|pref|fan\b|supporte pas|évite|très peu pour moi|pas pour moi)",
    "assent": r"^\s*(?:oui|d'accord)\b",
    "fact_plan": r"^\s*l'utilisat(?:eur|rice)\s+(?:prévoit|planifie|compte|part\s+en)\b",  # a plan the fact says the user made (domain/slot_repair.py)
    "fact_wish": r"^\s*l'utilisat(?:eur|rice)\s+(?:veut|voudrait|souhaite|cherche|demande|prévoit|commande|"
                 r"a\s+besoin)\b",
    "user_subject": r"^\s*l'utilisateur(?:rice)?\b",
    "fact_pronoun": r"(?<![\w'.@/-])(?:ça|cela|ceci)(?![\w'@/-])",
    "stopwords": "de la le les du des et en un une au aux",
    "forget_nouns": {
        "email": r"adresse (?:e-?mail|mail|électronique)|courriel",
        "phone_number": r"numéro(?: de (?:téléphone|portable))?|téléphone|portable",
        "home_location": r"adresse|domicile",
        "name": r"nom|prénom",
        "job": r"métier|travail",
        "employer": r"employeur|entreprise",
    },
    "possessive": r"mon|ma|mes",
    "forget_verb": r"oublie[rz]?|supprime[rz]?|efface[rz]?",
    "forget_not": ("n'oublie pas ",),
    "marker_words": "le la les un une des et ou de du au aux en est sont je mon ma mes il elle ils elles pour avec "
                    "dans sur pas ne que qui utilisateur aime adore déteste préfère habite travaille veut son sa ses "
                    "ce cette",
    "decided": r"\b(?:décidé|décidée|décidés|décidées)\b",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\bn(?:e\s+|')(?:l'|les\s+|le\s+|la\s+)?(?:aime|adore|apprécie)\w*\s+plus\b",
    # "je suis sur Lyon": where one is based, in French as it is spoken
    "located": r"\b(?:je suis|on est|nous sommes)\s+(?:maintenant\s+)?(?:à|a|sur)",
    "passing": r"\b(?:jusqu|pour (?:le|la|les|quelques|deux|trois)|cette semaine|aujourd'hui|quand|pendant|hôtel|"
               r"hotel|gare)\b",
    "travel": r"\b(?:voyage|voyager|vacances|visite|visiter|excursion|road\s*trip|escapade)\b",
    "origin": r"\b(?:j'ai grandi|grandi|née?|originaire)\b",
    "channel_names": {
        "email": r"\bcourriel\b|\b(?:e-?)?mail\b",
        "phone": r"\bt[ée]l[ée]phone\b|\bt[ée]l\b|\bportable\b(?!\s+(?:de|du)\b)|\bgsm\b",  # the phone, not a laptop's "ordinateur portable de"
        "sms": r"\bsms\b|\btexto\b|\btexte[rz]?(?:-moi)?\b",  # Quebec "texte-moi" (text me)
    },
    "negation": r"\b(?:ne|n'|pas|jamais)\b",
}
