"""Indonesian: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Living words but no naming or
stance words: the gates that reject for a missing one let Indonesian through to the checks of every language."""

LEXICON = {
    # Naming since session 20 (a review's probes: "kak" filed as a name): the first person's phrases and the
    # assistant's question ("Boleh tahu nama kakak?").
    "naming": r"\b(?:nama saya|nama aku|namaku|nama sy|panggil saya|panggil aku|nama kakak|nama anda|namanya siapa)\b",
    "weak_naming": r"saya|aku",
    "forget_nouns": {"name": r"\bnama"},
    "companion": r"\b(?:dengan|bersama)",
    "reported_speech": r"\b(?:bilang bahwa|berkata bahwa|katanya|mengatakan)\b",
    # The possessive follows the noun: "suami saya" is "my husband".
    "other_person":
        r"\b(?:suami|istri|adik|kakak|ibu|ayah|bapak|anak|teman|sahabat|bos|atasan|rekan|tetangga|pacar|"
        r"orang tua|sepupu)\s+(?:saya|aku|kami|ku)\b|\b(?:suami|istri|adik|kakak|ibu|ayah|bapak|anak|teman|"
        r"sahabat|bos|atasan|rekan|tetangga|pacar|sepupu)ku\b|^\W*(?:dia|mereka|beliau)\b",
    "self": r"\b(?:saya|aku|kami|kita)\b",
    "conditional": r"^\W*(?:(?:dan|tapi)\s+)?(?:kalau|jika|jikalau|seandainya|andaikan|apabila)\b",
    "hedge": r"\b(?:mungkin|barangkali|belum yakin|tidak yakin|kurang yakin)\b",
    "assent": r"^\s*(?:ya|iya|boleh|oke|ok|setuju|silakan)\b",
    "undecided": r"\b(?:masih bingung|belum memutuskan|belum tahu|pikir-pikir|saya pikirkan dulu|ragu antara|"
                 r"nanti saya putuskan|saya putuskan (?:minggu|bulan) depan|(?:minggu|bulan) depan saya putuskan)\b",
    "living": r"\b(?:tinggal|pindah|menetap|berdomisili|duduk di|rumah (?:saya|sy|aku|kami|gue)|rumahku)\b"
              r"|\bdomisili\s+(?:di\s+)?(?-i:[A-Z])",  # "domisili Bandung", not "alamat domisili kantor"
    # a request put as a question asks too ("Bisa bantu aku cari hotel di Bali?", "Tolong carikan ...?")
    "interrogative": r"^\W*(?:apa|apakah|di mana|dimana|kapan|mengapa|kenapa|siapa|yang mana|bagaimana|berapa|bisakah|"
                     r"bisa|boleh|bolehkah|dapatkah|maukah|tolong)\b",
    "request": r"^\W*(?:tolong\s+)?(?:bisa|bisakah|boleh|bolehkah|dapatkah|tolong)\b",
    "standing": r"\b(?:mulai sekarang|mulai hari ini|seterusnya|ke depannya|selalu)\b",
    "pleasantry_words": "terima kasih makasih makasi mksh trims banyak halo hai selamat pagi siang sore malam "
                        "sampai jumpa",
    "one_off": r"\b(?:cuma|hanya|khusus)\s+(?:kali\s+ini|hari\s+ini)\b|\bkali\s+ini\s+aja\b",
    "former": r"\bdulu\b|\bdahulu\b|\bsebelumnya\b",
    "desire": r"\b(?:ingin|mau|pengen|pingin|berharap)\b",
    "clause_joiner": r"\s+(?:dan|tapi|tetapi|sedangkan)\s+",
    "decided": r"\b(?:memutuskan|diputuskan|putuskan)\b",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"\b(?:tidak|tak|nggak|ngga|gak|ga|enggak)\s+suka\s+(?:\w+\s+){0,3}lagi\b(?!\s+pula)|\bsudah tidak suka\b|\budah (?:gak|ga|nggak) suka\b",
    "travel": r"\b(?:liburan|jalan-jalan|wisata|perjalanan|berkunjung|mengunjungi|trip|mudik)\b",
    "origin": r"\b(?:besar di|lahir|dibesarkan|asal|kampung halaman)\b",
    "channel_names": {
        "email": r"\bsurel\b",
        "phone": r"\btelepon\b|\btelpon\b|\btelp\b|\bnelpon\b",
        "whatsapp": r"\bwhatsap\b|\bwa\b",  # "WA aja ke nomor yg terdaftar" (holdout set 9)
    },
    "negation": r"\b(?:tidak|tak|nggak|gak|ga|jangan|bukan)\b",
}
