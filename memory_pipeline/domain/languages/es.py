"""Spanish: what the gates and the speech-act reader know of it, by kind (the kinds: domain/lexicon.py)."""

TEXT_SEARCH = "spanish"

LEXICON = {
    "companion": r"\b(?:con|junto a)",
    "reported_speech": r"\b(?:dijo|decía|dice que|me dijo)\b",
    "quoted_first_person": r"yo\b|mi\b|me\b",
    "self_report": r"\bcomo (?:te )?dije\b",
    "other_person":
        r"\b(?:mi|mis|nuestr[oa]s?)\s+(?:amig[oa]s?|espos[oa]|marido|mujer|herman[oa]s?|madre|padre|mamá|papá|"
        r"hij[oa]s?|jef[ea]|novi[oa]|compañer[oa]s?|vecin[oa]s?|prim[oa]s?|suegr[oa]s?|cuñad[oa]s?|abuel[oa]s?|tí[oa]s?|niet[oa]s?|sobrin[oa]s?)\b"
        r"|^\W*(?:él|ella|ellos|ellas)\b",
    "self": r"\b(?:yo|nosotr[oa]s)\b",
    "sarcasm": r"^\W*qué bien\b",
    "kidding": r"\b(?:es broma|era broma|bromeo|estoy bromeando)\b",
    # "si" typed for "sí" (yes) before an assent word opens no condition: "si claro, es el MX-2231".
    "conditional": r"^\W*(?:(?:y|pero)\s+)?si\b(?!,|\s+(?:claro|señor|señora|gracias|ok|vale|perfecto|exacto|correcto|"
                   r"bueno|porfa|por\s+favor)\b)",
    # A condition on a need of the one addressed (to reach the user, anything at all): the request after it
    # stands, whenever the need comes (domain/speech.py); no hypothetical about the user.
    "need_condition": r"^\W*(?:(?:y|pero)\s+)?si\s+(?:(?:necesita[ns]?|necesitas|quiere[ns]?|quieres|tiene[ns]?\s+que|tienes\s+que)\s+(?:contactarme|localizarme|llamarme|escribirme)|(?:necesita[ns]?|necesitas)\s+algo|hace\s+falta)",
    "hedge": r"\b(?:quizás|quizá|tal vez|ojalá)\b",
    "assent": r"^\s*(?:sí|vale|claro|adelante|de acuerdo|ok|hazlo)\b",
    "undecided": r"\b(?:lo (?:voy a )?pensar[ée]?|voy a pensarlo|lo pensaré|dudo entre|estoy dudando|no (?:lo )?he "
                 r"decidido|todavía no (?:lo )?he decidido|aún no (?:lo )?he decidido|decidiré|te (?:diré|aviso))\b",
    "moving_away": r"\b(?:siguen?\s+(?:llegando|viniendo|saliendo|cobrando)|todavía (?:llegan?|vienen?))\b",
    "away_from": r"\b(?:en lugar de|en vez de)\s+",
    "wanted": r"\b(?:necesito|necesitamos|quiero|queremos|de ahora en adelante|a partir de ahora)\b",
    "interrogative": r"^\W*(?:dónde|qué|cuándo|cómo|por qué|quién|cuál|cuánt[oa]s?|puedes|puede)\b|^\W*¿",
    "request": r"^\W*(?:puedes|podrías|podría|puede|pueden|podrían|podéis|podrías)\b",
    "standing": r"\b(?:de ahora en adelante|siempre|llámame|llamarme)\b",
    "pleasantry_words": "gracias muchas hola adiós",
    "filler_words": "bueno pues vale",
    "question_tail": r"^\W*(?:o|u|verdad|cierto)\b",
    "one_off": r"\b(?:solo|sólo|solamente|nada\s+más)\s+(?:por\s+)?esta\s+vez\b|\bpor\s+esta\s+vez\b|\bsolo\s+por\s+hoy\b",
    "former": r"\bsolía\b|\bsolia\b|\bantes\b|\banteriormente\b",
    "desire": r"\b(?:quiero|quisiera|queremos|me\s+gustaría|me\s+gustaria|ojalá|ojala|sueño\s+con|pienso\s+en|estoy\s+pensando\s+en)\b",
    "clause_joiner": r"\s+(?:y|pero)\s+",
    # Casual spellings met in chat: "yamo" (yeísmo), "bivo" (b for v).
    "naming": r"\b(?:llamo|llamas|llámame|llamame|llamarme|nombre|me dicen|yamo)\b",
    "weak_naming": r"soy(?:\s+(?:la|el))?",  # "Soy la Vero": an article before a first name, as Spain says it
    "living": r"\b(?:vivo|vivimos|vives|resido|mudé|mudamos|me mudo|me he mudado|bivo|en casa|desde casa|mi casa|mi piso)\b",
    "stance": r"\b(?:gust|encant|odi|prefier|favorit)",
    "fact_plan": r"^\s*(?:el\s+|la\s+)?usuari[oa]\s+(?:planea|planifica|hará|hara|va\s+a\s+(?:viajar|ir|hacer))\b",  # a plan the fact says the user made (domain/slot_repair.py)
    "fact_wish": r"^\s*(?:el\s+|la\s+)?usuari[oa]\s+(?:quiere|desea|busca|pregunta|planea|pide|necesita)\b",
    "user_subject": r"^\s*(?:el\s+|la\s+)?usuari[oa]\b",
    "fact_pronoun": r"(?<![\w'.@/-])(?:eso|esto|ello)(?![\w'@/-])",
    "forget_nouns": {
        "email": r"correo(?: electrónico)?",
        "phone_number": r"(?:número(?: de)? )?(?:teléfono|móvil|celular)|número",
        "home_location": r"dirección|domicilio",
        "name": r"nombre",
        "job": r"trabajo|profesión",
        "employer": r"empresa",
    },
    "possessive": r"mis|mi",
    "forget_verb": r"olvida(?:r)?|borra(?:r)?|elimina(?:r)?",
    "marker_words": "el la los las y o es son de del en un una que mi mis con por para no usuario gusta vive "
                    "trabaja quiere su sus este esta lo al",
    "decided": r"\b(?:decidí|decidimos|decidido|me decidí)\b",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\bya no (?:me (?:gusta|encanta)\w*|amo|quiero)\b|\bdej[éeó] de (?:gustar|encantar)\w*",
    "located": r"\b(?:estoy|estamos)\s+(?:ahora\s+)?en",
    "passing": r"\b(?:hasta|por unos días|por unos dias|esta semana|hoy|por trabajo|cuando|mientras|hotel)\b",
    "travel": r"\b(?:viaje\w*|viajar|vacaciones|visita\w*|visitar|excursión|excursion|escapada)\b",
    "origin": r"\b(?:crecí|creci|nací|naci|criad[oa]|originari[oa]|natal)\b",
    "channel_names": {
        "email": r"\bcorreo\b|\b(?:e-?)?mail\b",
        "phone": r"\btel[ée]fono\b|\bllamada\b",
        "sms": r"\bsms\b|\bmensaje de texto\b",
        "whatsapp": r"\bwasap\b|\bguasap\b",
    },
    "negation": r"\b(?:no|nunca|jamás)\b",
}
