"""Vietnamese: what the speech-act reader knows of it, by kind (the kinds: domain/lexicon.py). A question word mostly
ends the question ("... ở đâu?", "... không?"): `question_particle`. Living words but no naming or stance words:
the gates that reject for a missing one let Vietnamese through to the checks of every language."""

LEXICON = {
    "companion": r"\b(?:với|cùng với|cùng)",
    "reported_speech": r"\b(?:nói rằng|bảo rằng|kể rằng|nói là|bảo là|kể là|nghe nói)\b",
    # The possessive follows the noun: "chị gái tôi", "mẹ của tôi" is "my sister", "my mother".
    "other_person":
        r"\b(?:chồng|vợ|anh trai|chị gái|em trai|em gái|anh|chị|em|mẹ|bố|ba|má|cha|con trai|con gái|con|bạn|"
        r"bạn bè|bạn trai|bạn gái|người yêu|sếp|đồng nghiệp|hàng xóm|bố mẹ|ba mẹ|cha mẹ|ông|bà|cô|chú|bác|dì|"
        r"cậu|anh họ|chị họ|em họ)\s+(?:của\s+)?(?:tôi|mình|tớ|chúng tôi|chúng mình)\b"
        r"|^\W*(?:anh ấy|cô ấy|chị ấy|ông ấy|bà ấy|em ấy|họ)\b",
    "self": r"\b(?:tôi|mình|tớ|chúng tôi|chúng mình)\b",
    "conditional": r"^\W*(?:(?:và|nhưng)\s+)?(?:nếu|giả sử|giả như|lỡ như)\b",
    "hedge": r"\b(?:có lẽ|chắc là|hình như|không chắc|chưa chắc|biết đâu)\b|^\W*có thể\b",  # "Có thể ...": maybe
    "assent": r"^\s*(?:vâng|đồng ý|ok|ừ)\b",
    "undecided": r"\b(?:để (?:tôi|mình) (?:suy nghĩ|nghĩ|cân nhắc)|(?:tôi|mình) sẽ (?:suy nghĩ|cân nhắc)|"
                 r"suy nghĩ thêm|cân nhắc thêm|đang cân nhắc|chưa quyết định|phân vân|quyết định sau|tính sau)\b",
    "living": r"\b(?:sống|ở|cư trú|chuyển đến|chuyển tới|chuyển về|dọn đến|dọn về|nhà (?:của )?(?:tôi|mình)|quê)\b",
    "interrogative": r"^\W*(?:ai|cái gì|gì|ở đâu|đâu|khi nào|bao giờ|tại sao|vì sao|sao|làm sao|làm thế nào|"
                     r"thế nào|bao nhiêu|mấy|có phải|bạn có thể|có thể)\b",
    # Question words that stand inside the question, read in the clause that ends it: "quà tân gia nào hợp cho chị
    # ấy?" (which gift suits her?), never in "Tôi sống ở Hà Nội" before it.
    "question_word_inside": r"\b(?:nào|gì|đâu|ai|bao nhiêu|mấy)\b",
    "question_particle": r"\b(?:gì|đâu|nào|sao|không|chưa|à|hả|nhỉ|bao nhiêu|bao giờ|mấy|chứ)\W*[?？]\s*$",
    "pleasantry_words": "cảm ơn cám ơn bạn nhiều rất xin chào tạm biệt vâng dạ ạ nhé nhá",
    "question_tail": r"^\W*(?:hay|hoặc|phải không|đúng không|đúng chứ)\b",
    "question_clause_end": r"\b(?:không|chưa|nhỉ|à|hả)\W*$",
    "one_off": r"\bchỉ\s+lần\s+này\b|\blần\s+này\s+thôi\b",
    "former": r"\btrước đây\b|\bhồi trước\b|\bngày xưa\b",
    "desire": r"\b(?:muốn|mong|ước)\b",
    "clause_joiner": r"\s+(?:và|nhưng|còn|trong khi)\s+",
    "decided": r"\b(?:quyết định)\b",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"không còn thích|hết thích|không thích\s+(?:\S+\s+){0,4}nữa",
    "travel": r"du lịch|chuyến đi|nghỉ mát|tham quan",
    "origin": r"lớn lên|sinh ra|quê",
    "channel_names": {"email": r"\bthư điện tử\b", "phone": r"\bđiện thoại\b", "sms": r"\btin nhắn\b"},
    "negation": r"\b(?:không|chẳng|đừng)\b",
}
