"""Khmer: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Added in session 20: a
1.5B model filed the greeting "សួស្តីបង 🙏" (hello, brother) as the user's preferred name (holdout6, read after its
figure). Written without spaces between words: a greeting or thanks is one run of polite words
(`pleasantry_whole`, as Thai's). No naming, living or stance words: the gates that reject for a missing one let
Khmer through to the checks of every language."""

LEXICON = {
    "pleasantry_whole": r"^(?:សួស្តី|ជំរាបសួរ|អរគុណ|ច្រើន|ណាស់|បង|ប្អូន|បាទ|ចាស|ចា|លាហើយ|សុខសប្បាយ)+$",
    "pleasantry_words": "សួស្តី ជំរាបសួរ អរគុណ អរគុណច្រើន បាទ ចាស",
}
