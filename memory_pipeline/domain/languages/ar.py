"""Arabic: what the speech-act reader and the home gate know of it, by kind (the kinds: domain/lexicon.py). No
naming or stance words: the gates that reject for a missing one let Arabic through to the checks of every
language. Words are written as they stand alone; a joined prefix ("و" and, "ب" in) is allowed before them."""

LEXICON = {
    "companion": r"(?:مع)",
    "reported_speech": r"(?:قال إن|قال أن|قالت إن|قالت أن|يقول إن|أخبرني)",
    "other_person":
        r"(?<![\u0600-\u06ff])[وف]?(?:زوجي|زوجتي|أخي|أختي|أمي|أبي|ابني|ابنتي|أولادي|صديقي|صديقتي|أصدقائي|"
        r"مديري|زميلي|زملائي|جاري|جيراني|والداي|والدي)(?![\u0600-\u06ff])|"
        # spoken: Maghrebi, Egyptian and Levantine "my brother, my sister, my wife, my husband, my friend"
        # ("خويا ساكن فكازا": my brother lives in Casablanca, holdout set 12); not called ("يا خويا", bro) nor
        # whose place the user is at ("ساكنة عند ختي", I live at my sister's). Not "خالي" (also "free of") nor
        # "عمي" (also "blind").
        r"(?<!يا )(?<!عند )(?<!دار )(?<![\u0600-\u06ff])[وف]?(?:خويا|ختي|اختي|مراتي|مرتي|راجلي|جوزي|صاحبي|صحابي|"
        r"صاحبتي|خالتي|عمتي|بنتي)(?![\u0600-\u06ff])|^\W*(?:هو|هي|هم)(?![\u0600-\u06ff])",
    "self": r"(?<![\u0600-\u06ff])(?:أنا|نحن)(?![\u0600-\u06ff])",
    "conditional": r"^\W*(?:إذا|اذا|لو)(?![\u0600-\u06ff])",
    "hedge": r"(?<![\u0600-\u06ff])(?:ربما|لست متأكد|لست متأكدة|يمكن أن)(?![\u0600-\u06ff])",
    # ... and Egyptian "أيوه", Gulf "إيه زين" (yes, good; a bare "إيه" is Egyptian "what"); a letter after it is
    # another word, the Arabic comma is not
    "assent": r"^\s*(?:نعم|أجل|حسنا|حسناً|تمام|موافق|طيب|أيوه|ايوه|أيوا|ايوا|(?:إيه|ايه)\s+(?:زين|نعم|أكيد|اكيد|تمام))"
              r"(?![\u0621-\u064a])",
    "undecided": r"(?:سأفكر|سوف أفكر|لم أقرر|لم نقرر|متردد بين|مترددة بين|سأقرر لاحقا|سأقرر لاحقاً)",
    "living": r"(?:أسكن|اسكن|يسكن|نسكن|ساكن|بسكن|عايش|أعيش|اعيش|نعيش|انتقلت|انتقلنا|مقيم|مقيمة|أقيم|بيتي|منزلي)",
    "interrogative": r"^\W*(?:ما|ماذا|أين|متى|لماذا|من|كيف|كم|هل|أي)(?![\u0600-\u06ff])",
    "pleasantry_words": "شكرا شكراً جزيلا مرحبا أهلا السلام عليكم مع السلامة",
    "decided": r"(?:قررت|قررنا|قرّرت|قرّرنا)",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"لم (?:أعد|اعد) (?:أحب|احب)|ما عدت (?:أحب|احب)|مبقتش (?:بحب|أحب)",
    "travel": r"رحلة|سفر|سفرة|سأسافر|نسافر|مسافر|عطلة|إجازة|اجازة|زيارة|سياحة",
    "origin": r"نشأت|ترعرعت|ولدت|وُلدت|أصلي من|اصلي من",
    "channel_names": {
        "email": r"البريد الإلكتروني|البريد الالكتروني|الإيميل|الايميل|إيميل|ايميل",
        "phone": r"الهاتف|هاتف|اتصال|تلفون|التلفون|جوال|الجوال|موبايل",
        "sms": r"رسالة نصية|رسائل نصية",
        "whatsapp": r"واتساب|واتس اب|الواتس|واتس",
    },
    "negation": r"(?<!\w)(?:لا|لم|لن|ما|مش|مو|بلاش)(?!\w)",
}
