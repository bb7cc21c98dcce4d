"""Turkish: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Living words but no naming or
stance words: the gates that reject for a missing one let Turkish through to the checks of every language."""

LEXICON = {
    # Naming since session 20: the first person's phrases and the assistant's question ("Adınız nedir?").
    "naming": r"\b(?:adım|ismim|benim adım|adınız|adın ne|isminiz|ad soyad)\b",
    "weak_naming": r"ben",
    "forget_nouns": {"name": r"\b(?:ad[ıi]n|isim|ismin)"},
    "companion": r"\b(?:ile|birlikte)",
    "reported_speech": r"\b(?:dedi ki|söyledi ki|diyor ki)\b",
    # The possessive is a suffix: "kocam" is "my husband", "arkadaşım" "my friend".
    "other_person":
        r"\b(?:kocam|karım|eşim|kardeşim|ablam|abim|annem|babam|oğlum|kızım|çocuklarım|arkadaşım|arkadaşlarım|"
        r"patronum|müdürüm|meslektaşım|komşum|ailem|sevgilim)\b",
    "self": r"\b(?:ben|biz|bana|bize|beni)\b",
    "conditional": r"^\W*(?:eğer|şayet)\b",
    "hedge": r"\b(?:belki|sanırım|galiba|emin değilim)\b",
    "assent": r"^\s*(?:evet|tamam|olur|tabii)\b",
    "undecided": r"\b(?:düşüneceğim|düşünürüm|bir düşüneyim|henüz karar vermedim|kararsızım|arasında kaldım)\b",
    "living": r"\b(?:yaşıyorum|yaşıyoruz|oturuyorum|oturuyoruz|taşındım|taşındık|evim)\w*",
    # A place's name with "I am / we are in" joined ("Karşıyaka'dayım", "İzmir'deyiz": holdout set 6), a home when
    # no passing stay is said ("Bu hafta Ankara'dayım, toplantı var").
    "located": r"\w'(?:d|t)[ae]y(?:[ıi]m|[ıi]z)\b",
    "passing": r"\b(?:bu hafta|şu an|bugün|tatil\w*|toplantı\w*|iş için|otel\w*)",
    "interrogative": r"^\W*(?:ne|nerede|nereye|ne zaman|neden|niçin|kim|hangi|nasıl|kaç)\b",
    # chat spellings too: "tşk", "tşkler", "saol" (thanks), "süper" ("süper tşk" is thanks, not a liking of "tşk")
    "pleasantry_words": "teşekkürler teşekkür ederim çok sağ ol merhaba selam günaydın hoşça kal tşk tşkler tsk "
                        "tesekkurler sagol saol sağol eyvallah eyv süper super harika tamam",
    "one_off": r"\bsadece\s+bu\s+(?:sefer|seferlik|kez|kerelik)\b|\bbu\s+seferlik\b|\bbir\s+kerelik\b",
    "former": r"\beskiden\b|\bönceden\b",
    "desire": r"(?:istiyorum|istiyoruz|isterim|hayal\w*)",
    "clause_joiner": r"\s+(?:ve|ama|fakat|ancak)\s+",
    "decided": r"\b(?:karar verdim|karar verdik|karar verdi)\b",
    # A value made a statement by its ending: "yazılımcıyım" (I am a software developer), "öğretmeniz" (we are
    # teachers); vowel harmony gives each ending four forms.
    "predicate_suffix": r"y?[ıiuü][mz]|[dt][ıiuü]r",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\bart[ıi]k\s+(?:\w+\s+)?(?:sevmiyorum|sevmem|hoşlanmıyorum|beğenmiyorum)",
    "travel": r"\b(?:seyahat\w*|gezi\w*|tatil\w*|yolculuk\w*|ziyaret\w*)",
    "origin": r"\b(?:büyüdüm|doğdum|doğma büyüme|memleketim|aslen)\b",
    "channel_names": {
        "email": r"\be-?posta\w*|\b(?:e-?)?mail\w*",
        "phone": r"\btelefon\w*|\bara(?:yın|yin|r|ma)\w*",
        "sms": r"\bsms\w*|\bmesaj\w*",
        "whatsapp": r"\bwp\b",
    },
    "negation": r"\b(?:değil|yok|asla)\b",
}
