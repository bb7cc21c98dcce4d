"""Urdu (Nastaliq script): what the gates and the speech-act reader know of it, by kind (the kinds:
domain/lexicon.py). Added in session 23: a 1.5B model filed the greeting's second word "علیکم" of "سلام علیکم،
میرا نام عمران قریشی ہے" as the user's name (holdout set 11), and no Urdu greeting, naming or living words were
known. Urdu written in Latin letters is told as Hindi (domain/language.py); an Urdu chat is read with Hindi words
too (`READ_WITH`: one spoken language, "shukriya 🌸" is thanks in both)."""

READ_WITH = ("hi",)

LEXICON = {
    "self": r"(?<!\w)(?:ہم|مجھے|ہمیں)(?!\w)",  # not "میں": it is "I" and "in"
    # My brother, sister, husband, wife, friend, father, mother, son, daughter, boss, colleague
    "other_person": r"(?<!\w)(?:میرا|میری|میرے|ہمارا|ہماری|ہمارے)\s+(?:بھائی|بہن|شوہر|بیوی|دوست|والد|والدہ|ابو|امی|"
                    r"بیٹا|بیٹی|باس|ساتھی|کولیگ)(?!\w)",
    "conditional": r"^\W*(?:(?:اور|لیکن)\s+)?(?:اگر|اگرچہ)(?!\w)",
    "hedge": r"(?<!\w)(?:شاید|ممکن ہے|یقین نہیں)(?!\w)",
    "undecided": r"(?<!\w)(?:سوچ کر بتا\w*|سوچوں گا|سوچوں گی|ابھی فیصلہ نہیں)",
    "interrogative": r"^\W*(?:کیا|کہاں|کب|کیوں|کون|کیسے|کتنا|کتنی|کتنے|کونسا|کونسی)(?!\w)",
    "assent": r"^\s*(?:جی ہاں|جی|ہاں|ٹھیک ہے|بالکل|ضرور)(?!\w)",
    "pleasantry_words": "سلام علیکم السلام وعلیکم شکریہ بہت بہت خدا حافظ اللہ حافظ shukriya shukria bohat bahut",
    "naming": r"(?<!\w)(?:نام|مجھے\s+\S+\s+کہتے)(?!\w)",  # "میرا نام ... ہے": my name is
    "living": r"(?<!\w)(?:رہتا|رہتی|رہتے|رہائش|مقیم|شفٹ ہو\w*)(?!\w)",
}
