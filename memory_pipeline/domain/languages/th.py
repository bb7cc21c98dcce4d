"""Thai: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). Written without spaces
between words: no pattern leans on \\b (domain/languages/zh.py does the same), a question is told by its question
word before the question mark (`question_particle`) or, without one, before polite particles only
(`question_unmarked`), a pleasantry by one run of polite words (`pleasantry_whole`);
a space parts phrases, so a joining word counts after one. Living words but no naming or stance words: the gates
that reject for a missing one let Thai through to the checks of every language."""

_ME = r"(?:ฉัน|ผม|ดิฉัน|เรา)"
_AM = "(?:\u0e33|\u0e4d\u0e32)"  # sara am, as written and as NFKC (the quotes' form) splits it

LEXICON = {
    "companion": r"กับ|พร้อมกับ",
    "reported_speech": r"(?<!ฉัน)(?<!ผม)(?<!อยาก)(?:บอกว่า|พูดว่า|เล่าว่า)|ได้ยินมาว่า",
    # Another person's noun with "my" after it ("พี่สาวของฉัน", "แม่ผม"): a bare "แม่" is also "แม่น้ำ" (river)
    # and places (แม่ฮ่องสอน).
    "other_person": rf"(?:สามี|ภรรยา|แฟน|พี่ชาย|พี่สาว|น้องชาย|น้องสาว|พ่อแม่|แม่|พ่อ|ลูกชาย|ลูกสาว|ลูก|"
                    rf"เพื่อนร่วมงาน|เพื่อนบ้าน|เพื่อน|หัวหน้า|เจ้านาย|ลุง|ป้า|พี่|น้อง)(?:ของ)?{_ME}",
    "self": _ME,
    # A condition opens its phrase (a space parts Thai phrases), after "but", "and" or "so" at most.
    "conditional": r"^\W*(?:แต่|และ|ก็|งั้น)?\s*(?:ถ้า|หาก(?!ิน)|สมมติ|สมมุติ)",
    "hedge": r"อาจจะ|อาจ(?!ารย์)|บางที|คงจะ|มั้ง|ไม่แน่ใจ",  # not "อาจารย์" (teacher)
    "assent": r"^\s*(?:ได้(?:ครับ|ค่ะ|เลย)|โอเค|ตกลง|ดี(?:ครับ|ค่ะ|คะ|จ้า)|เอาตามนั้น|เอาเลย|จัดไป)",
    "undecided": r"ขอคิด|คิดดูก่อน|จะคิดดู|ขอไปคิด|ยังไม่ได้ตัดสินใจ|ยังไม่ตัดสินใจ|ยังตัดสินใจไม่ได้|ลังเล|"
                 r"ตัดสินใจทีหลัง|ค่อยตัดสินใจ",
    "living": r"อาศัย|อยู่|ย้าย|บ้าน",
    "question_particle": r"(?:ไหม|มั้ย|มั๊ย|หรือเปล่า|หรือยัง|หรือ|อะไร|ที่ไหน|ไหน|เมื่อไร|เมื่อไหร่|"
                         rf"ท{_AM}ไม|ใคร|"
                         r"อย่างไร|ยังไง|เท่าไร|เท่าไหร่|กี่)[^.!]*[?？]\s*$",
    # A question without a question mark, as Thai writes most: its question word, then only polite particles to
    # the end ("ร้านไหนอร่อยที่สุดคะ", "...อยู่ที่ไหนคะ").
    # Not "ผ้าไหม" (silk), "ไม่ค่อย ... เท่าไหร่" (not really), "ไม่รู้ทำไม" (don't know why).
    "question_unmarked": rf"(?:(?<!ผ้า)ไหม|มั้ย|มั๊ย|หรือเปล่า|หรือยัง|(?<!ไม่)(?<!ไม่รู้)(?:ที่ไหน|ไหน|ท{_AM}ไม|ใคร)|"
                         r"เมื่อไร|เมื่อไหร่|อย่างไร|ยังไง)(?:คะ|ค่ะ|ครับ|คับ|นะ|จ๊ะ|จ้ะ|จ๊า|เอ่ย|\s)*$",
    "pleasantry_whole": r"^(?:ขอบคุณ|ขอบใจ|มาก|ค่ะ|คะ|ครับ|นะ|สวัสดี|ลาก่อน|โอเค|จ้า|จ้ะ)+$",
    "pleasantry_words": "ขอบคุณ ขอบคุณครับ ขอบคุณค่ะ ขอบคุณมาก ขอบคุณมากครับ ขอบคุณมากค่ะ สวัสดี สวัสดีครับ "
                        "สวัสดีค่ะ ครับ ค่ะ",
    # A polite request ends in "can you?" ("...ได้ไหมคะ"), so the whole clause is matched from its start; a
    # standing one says from now on, every time, always ("ต่อไปแจ้งโปรผ่านไลน์แทนได้ไหมคะ": from now on, tell me
    # the promotions on LINE instead, can you?): an instruction, not a question (speech._standing_request).
    # Not a permission asked ("ผมจ่ายด้วยบัตรเครดิตทุกครั้งได้ไหมครับ": can I pay by card every time?): no "I" or
    # "may I" before it; "next time" (ครั้งต่อไป) is no from now on.
    "request": r"^\W*(?:ช่วย|รบกวน|(?!.*(?:ผม|ฉัน|ดิฉัน|เรา|ขอ)).*ได้(?:ไหม|มั้ย|มั๊ย|หรือเปล่า)(?:คะ|ค่ะ|ครับ|คับ|นะ|\s)*$)",
    "standing": r"(?<!ครั้ง)ต่อไป|ต่อจากนี้|จากนี้ไป|ทุกครั้ง|เสมอ|ตลอดไป",
    "clause_joiner": r"\s+(?:แต่|ส่วน|และ|ขณะที่)\s*",
    "decided": r"(?:ตัดสินใจ)",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"ไม่ชอบ.{0,12}แล้ว(?!ก็)|ไม่ชอบอีกต่อไป",
    "travel": r"เที่ยว|ทริป|เดินทาง|พักร้อน",
    "origin": r"เกิด|โตที่|บ้านเกิด",
    "channel_names": {"email": r"อีเมล|เมล", "phone": r"โทร(?!ทัศน์)", "sms": r"ข้อความ", "line": r"(?<!ออน)ไลน์"},
    "negation": r"ไม่|อย่า(?!ง)",  # not "อย่าง" (kind, -ly)
}
