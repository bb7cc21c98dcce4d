"""Portuguese: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). No naming, living
or stance words yet: the gates that reject for a missing one let Portuguese through to the checks of every
language."""

LEXICON = {
    # Naming since session 20 (a review's probes): the first person's phrases and the assistant's question.
    "naming": r"\b(?:me chamo|chamo-me|meu nome|me chamam|pode me chamar|te chamas|se chama você|qual (?:é )?(?:o )?seu nome)\b",
    "weak_naming": r"sou(?:\s+[oa])?|aqui é(?:\s+[oa])?",
    "forget_nouns": {"name": r"\bnome\b"},
    "companion": r"\b(?:com|junto com)",
    "reported_speech": r"\b(?:disse que|disse|diz que|falou que|me disse)\b",
    "self_report": r"\bcomo (?:eu )?(?:já )?(?:disse|falei)\b",
    "other_person":
        r"\b(?:meu|minha|meus|minhas|nosso|nossa|nossos|nossas)\s+(?:amig[oa]s?|espos[oa]|marido|mulher|irmã|"
        r"irmão|irmãos|irmãs|mãe|pai|filh[oa]s?|chefe|colegas?|vizinh[oa]s?|prim[oa]s?|namorad[oa]|pais|sogr[oa]s?|cunhad[oa]s?|avó|avô|avós|ti[oa]s?|net[oa]s?|sobrinh[oa]s?)\b"
        r"|^\W*(?:ele|ela|eles|elas)\b",
    "self": r"\b(?:eu|nós)\b",
    "kidding": r"\b(?:(?:estou|tô|to) brincando|é brincadeira|brincadeira)\b",
    "conditional": r"^\W*(?:(?:e|mas)\s+)?se\b(?!,)",
    # A condition on a need of the one addressed (to reach the user, anything at all): the request after it
    # stands, whenever the need comes (domain/speech.py); no hypothetical about the user.
    "need_condition": r"^\W*(?:(?:e|mas)\s+)?se\s+(?:(?:precisar(?:em)?|quiser(?:em)?|tiver(?:em)?\s+que)\s+(?:de\s+)?(?:me\s+)?(?:contactar|contatar|ligar|falar comigo|escrever)(?:-me)?|precisar(?:em)?\s+de\s+(?:algo|alguma\s+coisa)|for\s+preciso)",
    "hedge": r"\b(?:talvez|quem sabe|provavelmente|não tenho certeza|não sei se)\b",
    "assent": r"^\s*(?:sim|claro|pode ser|beleza|ok|combinado|faça isso|faz isso)\b",
    "undecided": r"\b(?:vou pensar|vou ver|vou decidir|(?:estou|tô|to|tou) (?:em|na) dúvida|estou indecis[oa]|ainda não decidi|não decidi|"
                 r"decido (?:depois|semana que vem))\b",
    "moving_away": r"\b(?:continuam (?:chegando|vindo|a chegar)|ainda (?:chegam|vêm))\b",
    "away_from": r"\b(?:em vez de|ao invés de)\s+",
    "wanted": r"\b(?:precisamos|preciso|queremos|quero|a partir de agora|daqui pra frente)\b",
    "interrogative": r"^\W*(?:o que|onde|quando|por que|quem|qual|quais|como|quanto|quanta|quantos|quantas|pode|"
                     r"podes|poderia)\b",
    "request": r"^\W*(?:pode|podes|poderia)\b",
    "standing": r"\b(?:a partir de agora|daqui pra frente|sempre|no futuro)\b",
    "pleasantry_words": "obrigado obrigada muito valeu olá oi tchau bom dia boa tarde noite",
    "filler_words": "bem então tipo né",
    "question_tail": r"^\W*(?:ou|né|certo|não é)\b",
    "one_off": r"\b(?:só|somente|apenas)\s+(?:desta|dessa|esta|essa)\s+vez\b|\bsó\s+(?:por\s+)?hoje\b",
    "former": r"\bcostumava\b|\bantes\b|\banteriormente\b",
    "desire": r"\b(?:quero|queria|queremos|gostaria|sonho\s+em|penso\s+em|estou\s+pensando\s+em)\b",
    "clause_joiner": r"\s+(?:e|mas|enquanto)\s+",
    "decided": r"\b(?:decidi|decidimos|decidido|resolvi|resolvemos)\b",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\bn[ãa]o (?:gosto|curto) mais\b|\bj[áa] n[ãa]o (?:gosto|curto)\b|\bdeixei de (?:gostar|curtir)\b",
    "travel": r"\b(?:viage\w*|viajar|férias|ferias|visita\w*|visitar|passeio|excursão|excursao)\b",
    "origin": r"\b(?:cresci|nasci|criad[oa]|natural de|terra natal)\b",
    "channel_names": {
        "email": r"\b(?:e-?)?mail\b|\bcorreio eletr[ôo]nico\b",
        "phone": r"\btelefone\b|\blig(?:ar|ue|a|uem)\b|\bliga[çc][ãa]o\b",
        "sms": r"\bsms\b|\bmensagem de texto\b",
        "whatsapp": r"\bzap\b|\bzapzap\b|\bwpp\b|\bwhats\b",
    },
    "negation": r"\b(?:n[ãa]o|nunca)\b",
}
