"""Bengali: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Added in session 22: a
short assent after the assistant's offer ("হ্যাঁ, করে দিন প্লিজ": yes, please do it) accepted nothing, so a right
answer's accepted express delivery was lost (holdout set 9). Assent and other people only; no naming, living or
stance words, so the gates that reject for a missing one let Bengali through to the checks of every language."""

LEXICON = {
    # Yes, OK, sure, do it (the assistant line before says what is accepted).
    # not the polite no "জি না", nor an OK that puts off or drops it ("ঠিক আছে, পরে জানাবো", "ওকে, থাক")
    "assent": r"^\s*(?:হ্যাঁ|হাঁ|জি হ্যাঁ|ঠিক আছে|অবশ্যই|করে দিন|ওকে)(?![\u0980-\u09ff])"
              r"(?![\s,।]*(?:না|থাক|পরে|ভেবে|কিন্তু))",
    # My sister, brother, mother, father, husband, wife, friend, son, daughter, colleague, boss (and their "-'s"):
    # "আমার বোনের নাম তানিয়া" is someone else's name (session 23's break-it review).
    "other_person": r"আমার\s+(?:বোন|ভাই|মা|বাবা|স্বামী|স্ত্রী|বন্ধু|ছেলে|মেয়ে|সহকর্মী|বস)(?:ের|র|কে)?"
                    r"(?![\u0980-\u09ff])",
}
