"""German: what the gates and the speech-act reader know of it, by kind (the kinds: domain/lexicon.py)."""

TEXT_SEARCH = "german"

LEXICON = {
    "companion": r"\b(?:mit)",
    "reported_speech": r"\b(?:hat gesagt|sagte|sagt|meinte|meint)\b",
    "quoted_first_person": r"ich\b",
    "self_report": r"\bwie ich (?:schon )?(?:sagte|gesagt habe)\b",
    "other_person":
        r"\b(?:mein|meine|meinem|meinen|meiner|unser|unsere)\s+(?:freund|freundin|frau|mann|bruder|schwester|"
        r"mutter|vater|sohn|tochter|chef|chefin|kollege|kollegin|nachbar|nachbarin|eltern|kinder)\b"
        r"|^\W*er\b(?!\s+(?:gibt|regnet)\b)",
    "self": r"\b(?:ich|mich|mir|wir|uns)\b",
    "sarcasm": r"^\W*(?:na toll|na super)\b",
    "kidding": r"\b(?:nur spaß|nur ein scherz|war nur ein witz|war ein scherz)\b",
    "conditional": r"^\W*(?:(?:und|aber)\s+)?(?:wenn|falls)\b(?!,)",
    # A condition on a need of the one addressed (to reach the user, anything at all): the request after it
    # stands, whenever the need comes (domain/speech.py); no hypothetical about the user.
    "need_condition": r"^\W*(?:(?:und|aber)\s+)?(?:wenn|falls)\s+(?:(?:Sie|du)\s+mich\s+(?:\w+\s+)?(?:erreichen|kontaktieren|anrufen|anschreiben)\s+(?:müssen|wollen|möchten|musst|willst)|(?:etwas|was)\s+(?:ist|sein\s+sollte)|(?:Sie|du)\s+(?:etwas|was)\s+(?:brauchen|brauchst))",
    "hedge": r"\b(?:vielleicht|ob)\b",  # "ob": whether
    "assent": r"^\s*(?:ja|jawohl|klar|gerne|gern|okay|ok|einverstanden|mach das|machen sie das|passt|alles klar|"
              r"machen wir|nehm ich|nehme ich|gebongt)\b",
    "undecided": r"\b(?:ich (?:überlege|muss (?:noch )?(?:überlegen|nachdenken)|denke (?:noch )?darüber nach|werde "
                 r"(?:darüber nachdenken|mich (?:später|nächste woche) entscheiden))|ich schwanke|unschlüssig|"
                 r"noch nicht entschieden|ich entscheide (?:mich )?(?:später|nächste woche|morgen))\b",
    "moving_away": r"\b(?:kommen|kommt)\s+(?:immer noch|weiterhin|ständig)\b|\bimmer noch\s+in\b",
    "away_from": r"\b(?:statt|anstatt|anstelle von)\s+",
    "wanted": r"\b(?:wir brauchen|ich brauche|ich möchte|wir möchten|ich will|wir wollen|ab jetzt|künftig|"
              r"in zukunft)\b",
    # A question opens with its verb too ("..., könnt ihr mir einen Yoga-Kurs empfehlen?": a break-it review).
    "interrogative": r"^\W*(?:wo|wann|warum|wieso|wie|wer|welche[rsmn]?|kann|kannst|können|könnt|könnten|könntet|"
                     r"ist|sind|seid|hast|haben|habt|gibt|würden|würdet|würdest|weißt|wisst|wissen)\b",
    "request": r"^\W*(?:kannst|können|könnten)\s+(?:du|sie)\b",
    "standing": r"\b(?:ab jetzt|künftig|immer)\b",
    "pleasantry_words": "danke vielen dank schön hallo tschüss",
    "filler_words": "also naja gut",
    "question_tail": r"^\W*(?:oder|nicht wahr|stimmt's|gell)\b",
    "one_off": r"\b(?:nur|ausnahmsweise)\s+(?:dieses\s+mal|diesmal|heute)\b|\bausnahmsweise\b",
    "former": r"\bfrüher\b|\bvorher\b|\behemals\b",
    "desire": r"\b(?:möchte|möchten|will|wollen|würde\s+gern\w*|träume\s+davon|überlege)\b",
    "clause_joiner": r"\s+(?:und|aber)\s+",
    "naming": r"\b(?:heiße|heisse|heißt|heisst|nenn(?:t|en)? (?:mich|sie mich)|vorname)\b",
    "weak_naming": r"ich bin",
    "living": r"\b(?:wohne|wohnen|wohnst|wohn|wohni|lebe|leben|lebst|umgezogen|gezogen|ziehe|ziehen|zuhause|zu hause|"
              r"daheim)\b",
    "stance": r"\b(?:mag|mög|liebe|hass|gern|lieblings)",
    "fact_plan": r"^\s*(?:der\s+|die\s+)?(?:be)?nutzer(?:in)?\s+(?:plant|macht\s+(?:eine|einen))\b",  # a plan the fact says the user made (domain/slot_repair.py)
    "fact_wish": r"^\s*(?:der\s+|die\s+)?(?:be)?nutzer(?:in)?\s+(?:möchte|will|sucht|fragt|plant|bestellt|braucht)\b",
    "user_subject": r"^\s*(?:der\s+)?(?:be)?nutzer(?:in)?\b",
    "fact_pronoun": r"(?<![\w'.@/-])(?:dies|dieses)(?![\w'@/-])",
    "forget_nouns": {
        "email": r"e-?mail-adresse|mailadresse",
        "phone_number": r"telefonnummer|handynummer|nummer",
        "home_location": r"wohnort|anschrift",
        "name": r"namen?",
        "job": r"beruf",
        "employer": r"arbeitgeber|firma",
    },
    "possessive": r"meinen|meine|mein",
    "forget_verb": r"vergiss|vergessen|lösch(?:e|en)?|loesch(?:e|en)?|entfern(?:e|en)?",
    "forget_verb_after": r"vergessen|löschen|loeschen|entfernen",  # "meine Telefonnummer löschen"
    "marker_words": "der die das und oder ist sind ich mein meine nicht mit ein eine zu von für auf im den dem des "
                    "benutzer nutzer mag liebt wohnt arbeitet möchte sein seine ihr ihre er sie es",
    "decided": r"\b(?:entschieden|entschlossen|beschlossen|steht fest)\b",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\b(?:mag|mögen|liebe|lieben)\b[^.!?]{0,30}\bnicht mehr\b|\bnicht mehr\s+(?:gern|mögen)\b",
    "located": r"\b(?:ich bin|wir sind)\s+(?:jetzt\s+|inzwischen\s+)?in",
    "passing": r"\b(?:bis|über|diese woche|heute|beruflich|wenn|während|hotel)\b|reise\b",
    "travel": r"\b(?:reise|reisen|verreisen|urlaub|ausflug|besuchen|trip|roadtrip|ferien)\b",
    "origin": r"\b(?:aufgewachsen|geboren|stamme aus|ursprünglich aus|heimatstadt|heimat)\b",
    "channel_names": {
        "email": r"\b(?:e-?)?mail\b",
        "phone": r"\btelefon\w*|\banruf\w*|\bruf\w* (?:mich|uns) an\b",
        "sms": r"\bsms\b",
    },
    "negation": r"\b(?:nicht|kein\w*|nie)\b",
}
