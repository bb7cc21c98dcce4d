"""Georgian: what the gates and the speech-act reader know of it, by kind (the kinds: domain/lexicon.py). Added in
session 20: a 1.5B model filed "ბარათი" (card) of "გამარჯობა, ბარათი შემთხვევით დავბლოკე" (hello, I blocked my
card by accident) as the user's home, and no Georgian living word was known, so any word could be a place.
Georgian joins "my" to a relative ("დედაჩემი", my mother) and a case ending to the noun ("ბათუმში", in Batumi):
living words are word starts. Mkhedruli has no capitals in use (domain/gates.py `_UNICAMERAL`)."""

_K = r"[\u10d0-\u10ff]"  # Georgian letters

LEXICON = {
    "self": rf"(?<!{_K})(?:მე|ჩემი|ჩემს|ჩვენ|ჩვენი)(?!{_K})",
    "other_person": rf"(?<!{_K})(?:დედაჩემ|მამაჩემ|დაჩემ|ძმაჩემ|ბებიაჩემ|ბაბუაჩემ|"
                    rf"ჩემი\s+(?:დედა|მამა|და|ძმა|ცოლი|ქმარი|შვილი|ვაჟი|ქალიშვილი|მეგობარი|კოლეგა|უფროსი|მეზობელი))",
    "conditional": rf"^\W*(?:თუ|თუკი|რომ\s+არა)(?!{_K})",
    "hedge": rf"(?<!{_K})(?:ალბათ|შეიძლება|იქნებ|არ\s+ვიცი\s+ზუსტად)(?!{_K})",
    "undecided": r"ვიფიქრებ|დავფიქრდები|ჯერ\s+არ\s+გადამიწყვეტია|ვერ\s+გადავწყვიტე",
    "naming": rf"(?<!{_K})(?:მქვია|მქვიან|ჩემი\s+სახელია|სახელი|გვარი)",
    "forget_nouns": {"name": r"სახელ"},
    "living": rf"(?<!{_K})(?:ვცხოვრობ|ვცხოვრობთ|ვსახლობ|გადავედი|გადავედით|გადავსახლდი|გადავსახლდით|"
              rf"ჩემი\s+სახლი|სახლში)",
    "interrogative": rf"^\W*(?:რა|სად|როდის|რატომ|ვინ|როგორ|რამდენი|რომელი)(?!{_K})",
    "pleasantry_words": "მადლობა დიდი გმადლობთ მადლობთ გამარჯობა ნახვამდის კარგი კარგით ოკ სალამი",
    "clause_joiner": rf"\s+(?:და|მაგრამ|ხოლო)\s+",
}
