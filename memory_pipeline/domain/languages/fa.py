"""Persian: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Added in session 20: "اگه
یه روزی برم شیراز زندگی کنم، ..." (if one day I go to live in Shiraz, ...) came back from a 1.5B model as the
user's home, and no Persian condition was known. Colloquial forms beside the written ones ("اگه" for "اگر"). No
naming, living or stance words: the gates that reject for a missing one let Persian through to the checks of every
language."""

LEXICON = {
    "self": r"(?<!\w)(?:من|ما|منو|مرا|به من)(?!\w)",
    "conditional": r"^\W*(?:(?:و|ولی|اما)\s+)?(?:اگر|اگه|چنانچه|فرض کنید|فرض کن)(?!\w)",
    "hedge": r"(?<!\w)(?:شاید|احتمالا|احتمالاً|مطمئن نیستم)(?!\w)",
    "undecided": r"(?<!\w)(?:فکر می[\u200c ]?کنم بعدا|بهش فکر می[\u200c ]?کنم|هنوز تصمیم نگرفتم|هنوز تصمیم نگرفته[\u200c ]?ام)",
    "interrogative": r"^\W*(?:چی|چه|کجا|کی|چرا|چطور|چطوری|چند|کدوم|کدام|آیا)(?!\w)",
    "pleasantry_words": "ممنون ممنونم مرسی سلام خداحافظ متشکرم سپاس خیلی",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"دیگر(?!\s+را)\s+(?:\S+\s+){0,3}دوست ندار|دیگه(?!\s+رو)\s+(?:\S+\s+){0,3}دوست ندار",
    "travel": r"سفر|مسافرت|تعطیلات|گردش|بازدید",
    "origin": r"بزرگ شدم|به دنیا آمدم|متولد",
    "channel_names": {"email": r"ایمیل", "phone": r"تلفن|زنگ", "whatsapp": r"واتساپ", "telegram": r"تلگرام"},
}
